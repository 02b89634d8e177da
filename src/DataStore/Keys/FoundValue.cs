using System.Buffers;

namespace DataStore;

/// <summary>Hands a looked-up value to a Get's destination, the same way on every backend that finds values as spans.</summary>
internal static class FoundValue
{
    /// <summary>Writes <paramref name="value"/> to <paramref name="destination"/> when <paramref name="found"/>; returns <paramref name="found"/>.</summary>
    public static bool Write(bool found, ReadOnlySpan<byte> value, IBufferWriter<byte> destination)
    {
        if (found)
        {
            destination.Write(value);
        }

        return found;
    }

    /// <summary>Copies <paramref name="value"/> when it fits and returns its length; -1 when not <paramref name="found"/>.</summary>
    public static int Copy(bool found, ReadOnlySpan<byte> value, Span<byte> destination)
    {
        if (!found)
        {
            return -1;
        }

        if (value.Length <= destination.Length)
        {
            value.CopyTo(destination);
        }

        return value.Length;
    }
}

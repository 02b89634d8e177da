using System.Runtime.CompilerServices;
using DataStore.Benchmarks.Ycsb;

namespace DataStore.Benchmarks.Peers;

/// <summary>A YCSB value as FASTER's blittable value type: its length and up to <see cref="YcsbKeys.ValueSize"/> bytes inline.</summary>
public struct FasterValue
{
    private Bytes _bytes;
    private int _length;

    /// <summary>The value holding <paramref name="bytes"/>.</summary>
    public static FasterValue Of(ReadOnlySpan<byte> bytes)
    {
        var value = new FasterValue { _length = bytes.Length };
        bytes.CopyTo(value._bytes);
        return value;
    }

    /// <summary>Copies the value into <paramref name="destination"/>; returns its length.</summary>
    public readonly int CopyTo(Span<byte> destination)
    {
        ((ReadOnlySpan<byte>)_bytes)[.._length].CopyTo(destination);
        return _length;
    }

    [InlineArray(YcsbKeys.ValueSize)]
    private struct Bytes
    {
        private byte _first;
    }
}

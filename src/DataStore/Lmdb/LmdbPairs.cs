using System.Buffers.Binary;
using System.Diagnostics.CodeAnalysis;
using DataStore.Integrity;

namespace DataStore.Lmdb;

/// <summary>
/// The checksum at the end of each stored LMDB value on a store with checksums (ADR 0014): LMDB 0.9 does not check
/// what it stores, so the backend stores a <see cref="PairChecksum"/> of the whole key and the value after the value.
/// </summary>
internal static class LmdbPairs
{
    /// <summary>The bytes stored after the caller's value.</summary>
    public static int SuffixLength(bool checksums) => checksums ? PairChecksum.Length : 0;

    /// <summary>
    /// The caller's value inside <paramref name="stored"/> (the value and, with checksums, its checksum); false when the
    /// checksum does not match <paramref name="key"/> and the value. Never throws, so it may run inside a read.
    /// </summary>
    public static bool TryCheck(ReadOnlySpan<byte> key, ReadOnlySpan<byte> stored, bool checksums, out ReadOnlySpan<byte> value)
    {
        if (!checksums)
        {
            value = stored;
            return true;
        }

        if (stored.Length < PairChecksum.Length)
        {
            value = default;
            return false;
        }

        value = stored[..^PairChecksum.Length];
        return PairChecksum.Matches(key, value, stored[^PairChecksum.Length..]);
    }

    /// <summary>
    /// Copies the caller's value inside <paramref name="stored"/> into <paramref name="destination"/> when it fits,
    /// checking it in the same pass, and returns its length (a destination too short only gets the length); -1 when the
    /// pair does not match its checksum, with none of the value left in <paramref name="destination"/>. Never throws,
    /// so it may run inside a read.
    /// </summary>
    public static int CopyChecked(ReadOnlySpan<byte> key, ReadOnlySpan<byte> stored, bool checksums, Span<byte> destination)
    {
        if (!checksums || stored.Length < PairChecksum.Length || stored.Length - PairChecksum.Length > destination.Length)
        {
            if (!TryCheck(key, stored, checksums, out var value))
            {
                return -1;
            }

            if (value.Length <= destination.Length)
            {
                value.CopyTo(destination);
            }

            return value.Length;
        }

        var copy = destination[..(stored.Length - PairChecksum.Length)];
        if (PairChecksum.ComputeCopy(key, stored[..copy.Length], copy) != BinaryPrimitives.ReadUInt32LittleEndian(stored[copy.Length..]))
        {
            copy.Clear();
            return -1;
        }

        return copy.Length;
    }

    /// <summary>The caller's value inside <paramref name="stored"/>, checked.</summary>
    /// <exception cref="StoreFormatException">The pair does not match its checksum (Corrupt, naming the key).</exception>
    public static ReadOnlySpan<byte> Checked(ReadOnlySpan<byte> key, ReadOnlySpan<byte> stored, bool checksums, string directory)
    {
        if (!TryCheck(key, stored, checksums, out var value))
        {
            ThrowDamaged(key, directory);
        }

        return value;
    }

    /// <summary>Throws the error for a pair that does not match its checksum.</summary>
    /// <exception cref="StoreFormatException">Always (Corrupt, naming the key).</exception>
    [DoesNotReturn]
    public static void ThrowDamaged(ReadOnlySpan<byte> key, string directory) =>
        PairDamage.Throw(directory, StoreBackend.Lmdb, key, "its value does not match its checksum");

    /// <summary>Writes the checksum after the value: <paramref name="destination"/> ends with the value's <see cref="SuffixLength"/> bytes.</summary>
    public static void WriteSuffix(Span<byte> destination, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, bool checksums)
    {
        if (checksums)
        {
            PairChecksum.Write(destination[^PairChecksum.Length..], key, value);
        }
    }
}

using System.Buffers.Binary;
using System.Numerics;

namespace DataStore.Integrity;

/// <summary>
/// The checksum stored with each pair on the backends whose engine does not check what it stores (ADR 0014): a
/// CRC-32C over the key's length, the key and the value, so a changed byte in either, or a key and value boundary
/// that moved, no longer matches.
/// </summary>
internal static class PairChecksum
{
    /// <summary>The checksum's stored size in bytes (little-endian).</summary>
    public const int Length = sizeof(uint);

    /// <summary>The checksum of one pair.</summary>
    public static uint Compute(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var crc = BitOperations.Crc32C(Crc32C.Seed, (uint)key.Length);
        crc = Crc32C.Append(crc, key);
        return Crc32C.Finish(Crc32C.Append(crc, value));
    }

    /// <summary>The checksum of a pair given as its key's length and its key and value back to back.</summary>
    public static uint Compute(int keyLength, ReadOnlySpan<byte> keyAndValue) =>
        Crc32C.Finish(Crc32C.Append(BitOperations.Crc32C(Crc32C.Seed, (uint)keyLength), keyAndValue));

    /// <summary>The checksums of three pairs at once (three CRC chains in flight), each given as in <see cref="Compute(int, ReadOnlySpan{byte})"/>.</summary>
    public static (uint A, uint B, uint C) ComputeThree(
        int keyLengthA, ReadOnlySpan<byte> pairA, int keyLengthB, ReadOnlySpan<byte> pairB, int keyLengthC, ReadOnlySpan<byte> pairC)
    {
        var a = BitOperations.Crc32C(Crc32C.Seed, (uint)keyLengthA);
        var b = BitOperations.Crc32C(Crc32C.Seed, (uint)keyLengthB);
        var c = BitOperations.Crc32C(Crc32C.Seed, (uint)keyLengthC);
        Crc32C.AppendEach(ref a, pairA, ref b, pairB, ref c, pairC);
        return (Crc32C.Finish(a), Crc32C.Finish(b), Crc32C.Finish(c));
    }

    /// <summary>The checksum of one pair, copying the value into <paramref name="valueCopy"/> as it reads it (the bytes checked are the bytes copied).</summary>
    public static uint ComputeCopy(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, Span<byte> valueCopy)
    {
        var crc = BitOperations.Crc32C(Crc32C.Seed, (uint)key.Length);
        crc = Crc32C.Append(crc, key);
        return Crc32C.Finish(Crc32C.AppendCopy(crc, value, valueCopy));
    }

    /// <summary>Writes the pair's checksum into the first <see cref="Length"/> bytes of <paramref name="destination"/>.</summary>
    public static void Write(Span<byte> destination, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        BinaryPrimitives.WriteUInt32LittleEndian(destination, Compute(key, value));

    /// <summary>True when <paramref name="stored"/> (the <see cref="Length"/> bytes written by <see cref="Write"/>) matches the pair.</summary>
    public static bool Matches(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, ReadOnlySpan<byte> stored) =>
        stored.Length == Length && BinaryPrimitives.ReadUInt32LittleEndian(stored) == Compute(key, value);
}

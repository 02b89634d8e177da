using System.Buffers.Binary;
using System.Numerics;

namespace DataStore.Integrity;

/// <summary>CRC-32C (Castagnoli), hardware-accelerated where the CPU has it (SSE 4.2, ARMv8 CRC), fed in pieces.</summary>
internal static class Crc32C
{
    /// <summary>The state to start from.</summary>
    public const uint Seed = ~0u;

    /// <summary>Feeds <paramref name="data"/> into the running <paramref name="crc"/>.</summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        while (data.Length >= sizeof(ulong))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt64LittleEndian(data));
            data = data[sizeof(ulong)..];
        }

        return AppendTail(crc, data);
    }

    /// <summary>
    /// Copies <paramref name="source"/> to the start of <paramref name="destination"/> and feeds it into the running
    /// <paramref name="crc"/> in the same pass: each word is read once, for both.
    /// </summary>
    public static uint AppendCopy(uint crc, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        destination = destination[..source.Length];
        while (source.Length >= sizeof(ulong))
        {
            var word = BinaryPrimitives.ReadUInt64LittleEndian(source);
            BinaryPrimitives.WriteUInt64LittleEndian(destination, word);
            crc = BitOperations.Crc32C(crc, word);
            source = source[sizeof(ulong)..];
            destination = destination[sizeof(ulong)..];
        }

        source.CopyTo(destination);
        return AppendTail(crc, source);
    }

    /// <summary>The finished CRC of a running state.</summary>
    public static uint Finish(uint crc) => ~crc;

    // Under 8 bytes left: at most one 4-, one 2- and one 1-byte step (the instruction takes wider words least
    // significant byte first, so this is the same CRC as byte by byte, in fewer dependent steps).
    private static uint AppendTail(uint crc, ReadOnlySpan<byte> data)
    {
        if (data.Length >= sizeof(uint))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt32LittleEndian(data));
            data = data[sizeof(uint)..];
        }

        if (data.Length >= sizeof(ushort))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt16LittleEndian(data));
            data = data[sizeof(ushort)..];
        }

        return data.IsEmpty ? crc : BitOperations.Crc32C(crc, data[0]);
    }
}

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

        foreach (var b in data)
        {
            crc = BitOperations.Crc32C(crc, b);
        }

        return crc;
    }

    /// <summary>The finished CRC of a running state.</summary>
    public static uint Finish(uint crc) => ~crc;
}

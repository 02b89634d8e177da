using System.Buffers.Binary;
using System.Numerics;

namespace DataStore.Transfer;

/// <summary>CRC-32C (Castagnoli) of the dump's frames, header and trailer; hardware-accelerated where the CPU has it.</summary>
internal static class DumpCrc
{
    /// <summary>The CRC-32C of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data)
    {
        var crc = ~0u;
        while (data.Length >= sizeof(ulong))
        {
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt64LittleEndian(data));
            data = data[sizeof(ulong)..];
        }

        foreach (var b in data)
        {
            crc = BitOperations.Crc32C(crc, b);
        }

        return ~crc;
    }
}

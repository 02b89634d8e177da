using DataStore.Integrity;

namespace DataStore.Transfer;

/// <summary>CRC-32C (Castagnoli) of the dump's frames, header and trailer; hardware-accelerated where the CPU has it.</summary>
internal static class DumpCrc
{
    /// <summary>The CRC-32C of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Crc32C.Finish(Crc32C.Append(Crc32C.Seed, data));
}

using System.Buffers.Binary;
using DataStore.Integrity;

namespace DataStore.Packed;

/// <summary>
/// The layout of a packed file (docs/packed-format.md): a header, blocks of prefix-compressed pairs in key order, an
/// index with each block's first key and CRC-32C, and a footer with the counts. Integers are little-endian.
/// </summary>
internal static class PackedFormat
{
    /// <summary>The data file's name inside the store directory.</summary>
    public const string FileName = "store.packed";

    /// <summary>The format version this build writes and the newest it reads.</summary>
    public const uint Version = 1;

    /// <summary>Header: magic (8), version (4), CRC-32C of the first 12 bytes (4).</summary>
    public const int HeaderLength = 16;

    /// <summary>Footer: index offset, index length, block count, pair count, key bytes, value bytes (8 each), index CRC (4), footer CRC (4), magic (8).</summary>
    public const int FooterLength = 64;

    /// <summary>Index entry: block offset (8), block length (4), block CRC (4), first-key offset (8), first-key length (4), pair count (4).</summary>
    public const int IndexEntryLength = 32;

    /// <summary>A block is closed once it holds at least this many bytes.</summary>
    public const int TargetBlockLength = 4096;

    /// <summary>The longest key: 1 MiB.</summary>
    public const int MaxKeyLength = 1 << 20;

    /// <summary>The longest value: 256 MiB.</summary>
    public const int MaxValueLength = 256 << 20;

    /// <summary>"DSPACKED" in ASCII, at the start and at the very end of the file.</summary>
    public static ReadOnlySpan<byte> Magic => "DSPACKED"u8;

    /// <summary>Writes the header into <paramref name="destination"/> (<see cref="HeaderLength"/> bytes).</summary>
    public static void WriteHeader(Span<byte> destination)
    {
        Magic.CopyTo(destination);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[8..], Version);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[12..], Crc(destination[..12]));
    }

    /// <summary>The CRC-32C of <paramref name="data"/>.</summary>
    public static uint Crc(ReadOnlySpan<byte> data) => Crc32C.Finish(Crc32C.Append(Crc32C.Seed, data));
}

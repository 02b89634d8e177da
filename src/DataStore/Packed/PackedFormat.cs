using System.Buffers.Binary;
using DataStore.Integrity;

namespace DataStore.Packed;

/// <summary>
/// The layout of a packed file (docs/packed-format.md): a header, blocks of prefix-compressed pairs in key order, an
/// index region (each block's first key and CRC-32C, then a hash table of every key), the CRC-32C of each page of the
/// index region, and a footer with the counts. Integers are little-endian.
/// </summary>
internal static class PackedFormat
{
    /// <summary>The data file's name inside the store directory.</summary>
    public const string FileName = "store.packed";

    /// <summary>The format version this build writes and the only one it reads.</summary>
    public const uint Version = 2;

    /// <summary>Header: magic (8), version (4), CRC-32C of the first 12 bytes (4).</summary>
    public const int HeaderLength = 16;

    /// <summary>Footer: index offset, hash offset, hash slots, page table offset, block count, pair count, key bytes, value bytes (8 each), page length, page table CRC, footer CRC, reserved (4 each), magic (8).</summary>
    public const int FooterLength = 88;

    /// <summary>The index region is checked in pages of this many bytes, each the first time it is read.</summary>
    public const int PageLength = 4096;

    /// <summary>Index entry: block offset (8), block length (4), block CRC (4), first-key offset (8), first-key length (4), pair count (4).</summary>
    public const int IndexEntryLength = 32;

    /// <summary>A block is closed once it holds at least this many bytes, so every pair starts below this offset in its block.</summary>
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

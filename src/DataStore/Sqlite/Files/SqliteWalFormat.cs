using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace DataStore.Sqlite.Files;

/// <summary>
/// SQLite's write-ahead-log layout and its cumulative checksum, written from the file-format description
/// (https://www.sqlite.org/fileformat2.html#walformat): a 32-byte header, then frames of a 24-byte header and one page.
/// </summary>
/// <remarks>
/// The header holds a magic number whose lowest bit says in which byte order the checksum reads the file's 32-bit words,
/// the format version, the page size, a checkpoint sequence, two salts and a checksum of its first 24 bytes. A frame's
/// header holds its page number, the database size in pages on a commit frame (else 0), the header's salts, and a
/// checksum running on from the previous frame's (the header's for the first) over the frame header's first 8 bytes and
/// the page. Stored numbers are big-endian.
/// </remarks>
internal static class SqliteWalFormat
{
    /// <summary>The log header's size.</summary>
    public const int HeaderSize = 32;

    /// <summary>A frame header's size.</summary>
    public const int FrameHeaderSize = 24;

    private const uint Magic = 0x377f0682;
    private const uint FormatVersion = 3007000;

    /// <summary>True when <paramref name="header"/> is a log header whose checksum matches.</summary>
    public static bool IsHeader(ReadOnlySpan<byte> header) =>
        header.Length >= HeaderSize && (BinaryPrimitives.ReadUInt32BigEndian(header) & ~1u) == Magic &&
        BinaryPrimitives.ReadUInt32BigEndian(header[4..]) == FormatVersion && PageSize(header) > 0 &&
        Checksum(header[..24], default, BigEndianSums(header)) == Stored(header[24..]);

    /// <summary>The page size a header records, or 0 when it is not one SQLite writes.</summary>
    public static int PageSize(ReadOnlySpan<byte> header)
    {
        var size = BinaryPrimitives.ReadUInt32BigEndian(header[8..]);
        return size is >= 512 and <= 65_536 && (size & (size - 1)) == 0 ? (int)size : 0;
    }

    /// <summary>True when the checksum reads the log's words big-endian (the magic number's lowest bit).</summary>
    public static bool BigEndianSums(ReadOnlySpan<byte> header) => (header[3] & 1) == 1;

    /// <summary>The two salts of a log header, or of a frame header (bytes 8 to 16), as one number.</summary>
    public static ulong Salts(ReadOnlySpan<byte> header, bool frame) => BinaryPrimitives.ReadUInt64BigEndian(header[(frame ? 8 : 16)..]);

    /// <summary>The checksum stored at the start of <paramref name="stored"/> (8 bytes, big-endian).</summary>
    public static (uint, uint) Stored(ReadOnlySpan<byte> stored) =>
        (BinaryPrimitives.ReadUInt32BigEndian(stored), BinaryPrimitives.ReadUInt32BigEndian(stored[4..]));

    /// <summary>True when <paramref name="frame"/> (header and page) is a commit frame: its database size is not 0.</summary>
    public static bool IsCommit(ReadOnlySpan<byte> frame) => BinaryPrimitives.ReadUInt32BigEndian(frame[4..]) != 0;

    /// <summary>
    /// True when <paramref name="frame"/> belongs to the log of <paramref name="salts"/> and its stored checksum is the one
    /// running on from <paramref name="previous"/>; <paramref name="next"/> is then the chain's value for the next frame.
    /// </summary>
    public static bool FrameMatches(ReadOnlySpan<byte> frame, ulong salts, (uint, uint) previous, bool bigEndian, out (uint, uint) next)
    {
        next = default;
        if (BinaryPrimitives.ReadUInt32BigEndian(frame) == 0 || Salts(frame, frame: true) != salts)
        {
            return false;
        }

        next = Checksum(frame[FrameHeaderSize..], Checksum(frame[..8], previous, bigEndian), bigEndian);
        return next == Stored(frame[16..]);
    }

    /// <summary>SQLite's checksum of <paramref name="data"/> (a multiple of 8 bytes) running on from <paramref name="seed"/>.</summary>
    /// <remarks>Compiled optimized at once: the open's walk runs it over the whole log in a process that just started.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static (uint, uint) Checksum(ReadOnlySpan<byte> data, (uint, uint) seed, bool bigEndian)
    {
        var (s0, s1) = seed;
        var words = MemoryMarshal.Cast<byte, uint>(data);
        var swap = bigEndian == BitConverter.IsLittleEndian;
        for (var i = 0; i + 1 < words.Length; i += 2)
        {
            var a = swap ? BinaryPrimitives.ReverseEndianness(words[i]) : words[i];
            var b = swap ? BinaryPrimitives.ReverseEndianness(words[i + 1]) : words[i + 1];
            s0 += a + s1;
            s1 += b + s0;
        }

        return (s0, s1);
    }
}

using System.Buffers.Binary;

namespace DataStore.Sqlite.Files;

/// <summary>
/// The page numbers a SQLite write-ahead log holds frames for, read from its frame headers with plain file reads
/// (https://www.sqlite.org/fileformat2.html#walformat): every frame whose salts match the log's header belongs to the
/// current log. Checksums are not followed; the set only tells which pages the log can still supply.
/// </summary>
internal static class SqliteWalPages
{
    private const int HeaderSize = 32;
    private const int FrameHeaderSize = 24;

    /// <summary>The pages held by the log at <paramref name="walFile"/>; empty when it is missing, empty or not a log of <paramref name="pageSize"/>-byte pages.</summary>
    public static HashSet<uint> Read(string walFile, int pageSize)
    {
        var pages = new HashSet<uint>();
        if (!File.Exists(walFile))
        {
            return pages;
        }

        using var handle = File.OpenHandle(walFile, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        var length = RandomAccess.GetLength(handle);
        Span<byte> header = stackalloc byte[HeaderSize];
        if (length < HeaderSize || RandomAccess.Read(handle, header, 0) < HeaderSize)
        {
            return pages;
        }

        var magic = BinaryPrimitives.ReadUInt32BigEndian(header);
        if ((magic & ~1u) != 0x377f0682 || BinaryPrimitives.ReadUInt32BigEndian(header[8..]) != pageSize)
        {
            return pages;
        }

        var salts = BinaryPrimitives.ReadUInt64BigEndian(header[16..]);
        Span<byte> frame = stackalloc byte[FrameHeaderSize];
        for (long offset = HeaderSize; offset + FrameHeaderSize + pageSize <= length; offset += FrameHeaderSize + pageSize)
        {
            if (RandomAccess.Read(handle, frame, offset) < FrameHeaderSize || BinaryPrimitives.ReadUInt64BigEndian(frame[8..]) != salts)
            {
                break;
            }

            pages.Add(BinaryPrimitives.ReadUInt32BigEndian(frame));
        }

        return pages;
    }
}

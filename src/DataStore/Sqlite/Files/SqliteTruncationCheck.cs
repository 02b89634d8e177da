using System.Buffers.Binary;

namespace DataStore.Sqlite.Files;

/// <summary>
/// Before SQLite opens an existing database: a file cut short is an error naming it. SQLite reads a page past the
/// file's end as zeros, so a truncated database can answer a lookup with "absent" instead of an error (the damage
/// matrix found it). The header records the database's size in pages (valid when its change counter matches the
/// version-valid-for number); every page up to that size must be in the file or in the write-ahead log, which still
/// holds the pages a checkpoint cut short by a crash was copying.
/// </summary>
internal static class SqliteTruncationCheck
{
    private const int HeaderSize = 100;

    /// <summary>Throws a Corrupt <see cref="StoreFormatException"/> naming <paramref name="databaseFile"/> when it lacks a page in use.</summary>
    public static void Run(string directory, string databaseFile)
    {
        // Checked twice: a checkpoint in another process may extend the file, and then restart the log, between the reads.
        if (FindMissing(databaseFile) is not null && FindMissing(databaseFile) is { } missing)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Sqlite,
                $"its database file '{databaseFile}' is damaged: {missing}: the file was truncated. Restore the store from a backup.");
        }
    }

    private static string? FindMissing(string databaseFile)
    {
        if (!File.Exists(databaseFile))
        {
            return null;
        }

        Span<byte> header = stackalloc byte[HeaderSize];
        using (var handle = File.OpenHandle(databaseFile, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete))
        {
            if (RandomAccess.Read(handle, header, 0) < HeaderSize || !header[..16].SequenceEqual("SQLite format 3\0"u8))
            {
                return null; // SQLite's own open reports a file that is not a database
            }
        }

        int pageSize = BinaryPrimitives.ReadUInt16BigEndian(header[16..]);
        pageSize = pageSize == 1 ? 65_536 : pageSize;
        var pages = BinaryPrimitives.ReadUInt32BigEndian(header[28..]);
        var valid = BinaryPrimitives.ReadUInt32BigEndian(header[24..]) == BinaryPrimitives.ReadUInt32BigEndian(header[92..]);
        var length = new FileInfo(databaseFile).Length;
        if (!valid || pages == 0 || pageSize < 512 || length >= (long)pages * pageSize)
        {
            return null;
        }

        var inLog = SqliteWalPages.Read(databaseFile + "-wal", pageSize);
        for (var page = (uint)(length / pageSize) + 1; page <= pages; page++)
        {
            if (!inLog.Contains(page))
            {
                return $"it is {length} bytes long, but its header records {pages} pages of {pageSize} bytes and page {page} is neither in the file nor in its write-ahead log";
            }
        }

        return null;
    }
}

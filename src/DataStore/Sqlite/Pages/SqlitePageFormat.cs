using System.Runtime.InteropServices;
using DataStore.Manifest;

namespace DataStore.Sqlite.Pages;

/// <summary>
/// Which Sqlite stores keep page checksums (ADR 0023): those whose manifest has format version
/// <see cref="StoreManifest.SqlitePageChecksumsFormatVersion"/> or later, every Sqlite store created since. Before the
/// writer opens such a store, a new database file is created with 8 reserved bytes per page (they can only be set
/// before the first page exists), and an existing one must reserve them: a header that does not is damage.
/// </summary>
internal static unsafe partial class SqlitePageFormat
{
    private const int ReserveBytesControl = 38; // SQLITE_FCNTL_RESERVE_BYTES
    private const int HeaderSize = 100;

    /// <summary>Creates the database with checksummed pages, or checks that it has them; for a store whose manifest asks for them.</summary>
    /// <exception cref="StoreFormatException">The database's header has no room for the page checksums.</exception>
    public static void Prepare(string directory, string file, SqliteErrors errors, TimeSpan timeout)
    {
        if (ReadHeader(file) is { } header)
        {
            if (header[..16].SequenceEqual("SQLite format 3\0"u8) && header[20] != PageChecksum.Size)
            {
                throw new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Sqlite,
                    $"its database file '{file}' is damaged: its header reserves {header[20]} bytes per page, but this store's pages carry an " +
                    $"{PageChecksum.Size}-byte checksum (format version {StoreManifest.SqlitePageChecksumsFormatVersion}). Restore the store from a backup.");
            }

            return; // not a database at all: SQLite's own open says so
        }

        using var session = SqliteSession.Open(file, errors, timeout, creatingPageChecksums: true);
        var reserve = PageChecksum.Size;
        var rc = FileControl(session.Db.DangerousGetHandle(), "main\0"u8, ReserveBytesControl, &reserve);
        errors.Check(rc, session.Db, "reserving page checksum bytes");
        // Writes the first page (header included) now, with the reserved bytes; a database another process created first keeps its own.
        session.Execute("PRAGMA journal_mode=WAL; PRAGMA user_version=0", "creating the database with page checksums");
    }

    /// <summary>True when the database file at <paramref name="file"/> exists and its header reserves the checksum's bytes.</summary>
    public static bool HasChecksums(string file) => ReadHeader(file) is { } header && SqlitePageVfs.ReservesChecksum(header);

    // The first 100 bytes of the database file, or null when it is missing or shorter (a store being created).
    private static byte[]? ReadHeader(string file)
    {
        if (!File.Exists(file))
        {
            return null;
        }

        using var handle = File.OpenHandle(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        var header = new byte[HeaderSize];
        return RandomAccess.Read(handle, header, 0) == HeaderSize ? header : null;
    }

    private static int FileControl(IntPtr db, ReadOnlySpan<byte> name, int op, void* argument)
    {
        fixed (byte* zName = name)
        {
            return FileControl(db, zName, op, argument);
        }
    }

    [LibraryImport("e_sqlite3", EntryPoint = "sqlite3_file_control")]
    [UnmanagedCallConv(CallConvs = [typeof(System.Runtime.CompilerServices.CallConvCdecl)])]
    private static partial int FileControl(IntPtr db, byte* name, int op, void* argument);
}

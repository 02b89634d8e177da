using System.Diagnostics.CodeAnalysis;
using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>Translates SQLite result codes into exceptions that name the store path, the backend and the cause.</summary>
internal sealed class SqliteErrors(string directory, TimeSpan timeout) : Writes.IWriteErrors
{
    private const int ShortRead = raw.SQLITE_IOERR | (2 << 8); // SQLITE_IOERR_SHORT_READ

    public string Directory => directory;

    /// <summary>How long a write waits for the writer, in this process and across processes.</summary>
    public TimeSpan Timeout => timeout;

    /// <summary>The error of a write that waited for the writer past <see cref="Timeout"/>.</summary>
    public StoreTimeoutException TimedOut() => new(directory, StoreBackend.Sqlite, timeout);

    /// <summary>Throws unless <paramref name="rc"/> is OK, ROW or DONE.</summary>
    public void Check(int rc, sqlite3 db, string operation)
    {
        if (rc != raw.SQLITE_OK && rc != raw.SQLITE_ROW && rc != raw.SQLITE_DONE)
        {
            Throw(rc, db, operation);
        }
    }

    [DoesNotReturn]
    public void Throw(int rc, sqlite3? db, string operation) => throw Translate(rc, db, operation);

    public DataStoreException Translate(int rc, sqlite3? db, string operation)
    {
        var message = db is null || raw.sqlite3_extended_errcode(db) == raw.SQLITE_OK
            ? raw.sqlite3_errstr(rc).utf8_to_string()
            : raw.sqlite3_errmsg(db).utf8_to_string();
        var detail = $"{operation} failed: {message} (SQLite code {rc})";
        if (rc is Pages.SqlitePageFault.ChecksumMismatch or Pages.SqlitePageFault.IoError && Pages.SqlitePageFault.Take() is var (page, exception))
        {
            if (rc == Pages.SqlitePageFault.ChecksumMismatch)
            {
                return new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Sqlite,
                    $"{detail}. {(page > 0 ? $"Page {page}" : "A page")} of the database file '{Path.Combine(directory, SqliteStore.DatabaseFile)}' does not match its checksum: the file is damaged. Restore the store from a backup.");
            }

            if (exception is not null)
            {
                return new DataStoreException(StoreFailure.Engine, directory, StoreBackend.Sqlite, $"{detail}: the page-checksum VFS failed ({exception.Message}).", exception);
            }
        }

        if ((rc & 0xFF) is raw.SQLITE_IOERR or raw.SQLITE_FULL or raw.SQLITE_CANTOPEN && db is not null &&
            ResourceErrors.FromErrno(SqliteSystemError.Of(db)) is var (cause, words))
        {
            return new DataStoreException(cause, directory, StoreBackend.Sqlite, $"{detail}: {words}");
        }

        return (rc & 0xFF) switch
        {
            raw.SQLITE_BUSY or raw.SQLITE_LOCKED => new StoreTimeoutException(directory, StoreBackend.Sqlite, timeout),
            raw.SQLITE_CORRUPT or raw.SQLITE_NOTADB => new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Sqlite,
                $"{detail}. The database file '{Path.Combine(directory, SqliteStore.DatabaseFile)}' (or its write-ahead log) is damaged or is not a DataStore SQLite database."),
            _ when rc == ShortRead => new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Sqlite,
                $"{detail}. The database file '{Path.Combine(directory, SqliteStore.DatabaseFile)}' ends before a page in use: it was truncated."),
            raw.SQLITE_FULL => new DataStoreException(StoreFailure.DiskFull, directory, StoreBackend.Sqlite, $"{detail}. Free disk space and retry."),
            raw.SQLITE_PERM or raw.SQLITE_READONLY or raw.SQLITE_CANTOPEN or raw.SQLITE_AUTH => new DataStoreException(StoreFailure.AccessDenied,
                directory, StoreBackend.Sqlite, $"{detail}. Check that this user may read and write the store's directory and files."),
            raw.SQLITE_IOERR => new DataStoreException(StoreFailure.Io, directory, StoreBackend.Sqlite, detail),
            _ => new DataStoreException(StoreFailure.Engine, directory, StoreBackend.Sqlite, detail),
        };
    }
}

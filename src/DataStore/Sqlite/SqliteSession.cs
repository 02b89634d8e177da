using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>One SQLite connection with its statements prepared once and reused; used by one thread at a time.</summary>
internal sealed class SqliteSession : IDisposable
{
    private const int OpenFlags = raw.SQLITE_OPEN_READWRITE | raw.SQLITE_OPEN_CREATE | raw.SQLITE_OPEN_NOMUTEX | raw.SQLITE_OPEN_PRIVATECACHE;
    private const uint PreparePersistent = 0x01;

    private readonly string[] _sql;
    private readonly sqlite3_stmt?[] _statements = new sqlite3_stmt?[SqliteSql.Plain.Length];
    private readonly SqliteErrors _errors;

    static SqliteSession() => Batteries_V2.Init();

    private SqliteSession(sqlite3 db, SqliteErrors errors, bool checksums)
    {
        Db = db;
        _errors = errors;
        Checksums = checksums;
        _sql = checksums ? SqliteSql.Checksummed : SqliteSql.Plain;
    }

    public sqlite3 Db { get; }

    /// <summary>True when the statements read and write each pair's checksum (column <c>c</c>).</summary>
    public bool Checksums { get; }

    public SqliteErrors Errors => _errors;

    /// <summary>Opens a connection to <paramref name="file"/> with the store's per-connection settings.</summary>
    public static SqliteSession Open(string file, SqliteErrors errors, TimeSpan timeout, bool checksums = false, bool creatingPageChecksums = false)
    {
        var rc = raw.sqlite3_open_v2(file, out var db, OpenFlags, PageVfs(errors, creatingPageChecksums));
        if (rc != raw.SQLITE_OK)
        {
            var error = errors.Translate(rc, db, "opening the database");
            db?.Dispose();
            throw error;
        }

        var session = new SqliteSession(db, errors, checksums);
        try
        {
            if (raw.sqlite3_db_readonly(db, "main") == 1)
            {
                errors.Throw(raw.SQLITE_READONLY, db, "opening the database for writing");
            }

            raw.sqlite3_extended_result_codes(db, 1);
            raw.sqlite3_busy_timeout(db, (int)Math.Min(int.MaxValue, timeout.TotalMilliseconds));
            session.Execute("PRAGMA synchronous=NORMAL; PRAGMA cache_size=-8192", "configuring the connection");
            return session;
        }
        catch
        {
            session.Dispose();
            throw;
        }
    }

    /// <summary>The page-checksum VFS every store connection opens through (ADR 0023), registered on first use; see <see cref="Pages.SqlitePageVfs.CreatingName"/>.</summary>
    internal static string PageVfs(SqliteErrors errors, bool creating = false)
    {
        try
        {
            return Pages.SqlitePageVfs.Register(creating);
        }
        catch (Exception e) when (e is InvalidOperationException or DllNotFoundException or EntryPointNotFoundException)
        {
            throw new DataStoreException(StoreFailure.Engine, errors.Directory, StoreBackend.Sqlite, $"the page-checksum VFS could not be set up: {e.Message}", e);
        }
    }

    /// <summary>Runs SQL text once (set-up and maintenance only; hot paths use prepared statements).</summary>
    public void Execute(string sql, string operation) => _errors.Check(raw.sqlite3_exec(Db, sql), Db, operation);

    /// <summary>The prepared statement, reset and with no bindings, ready to bind and step.</summary>
    public sqlite3_stmt Statement(SqliteStatement which)
    {
        var statement = _statements[(int)which];
        if (statement is null)
        {
            var rc = raw.sqlite3_prepare_v3(Db, _sql[(int)which], PreparePersistent, out statement);
            _errors.Check(rc, Db, "preparing a statement");
            _statements[(int)which] = statement;
        }

        return statement;
    }

    /// <summary>Binds a blob; an empty span binds a zero-length blob, never NULL.</summary>
    public void Bind(sqlite3_stmt statement, int index, ReadOnlySpan<byte> bytes)
    {
        var rc = bytes.IsEmpty ? raw.sqlite3_bind_zeroblob(statement, index, 0) : raw.sqlite3_bind_blob(statement, index, bytes);
        if (rc != raw.SQLITE_OK)
        {
            _errors.Throw(rc, Db, "binding a key or value");
        }
    }

    /// <summary>Binds the pair's checksum (column <c>c</c>) of a Put on a store with checksums.</summary>
    public void BindChecksum(sqlite3_stmt statement, int index, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        var rc = raw.sqlite3_bind_int64(statement, index, Integrity.PairChecksum.Compute(key, value));
        if (rc != raw.SQLITE_OK)
        {
            _errors.Throw(rc, Db, "binding a checksum");
        }
    }

    /// <summary>True when the row's checksum (column <paramref name="column"/>) matches the pair.</summary>
    public static bool Matches(sqlite3_stmt statement, int column, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        raw.sqlite3_column_int64(statement, column) == Integrity.PairChecksum.Compute(key, value);

    /// <summary>Steps a statement; returns true for a row, false when done, and throws (after resetting) on an error.</summary>
    public bool Step(sqlite3_stmt statement, string operation)
    {
        var rc = raw.sqlite3_step(statement);
        if (rc == raw.SQLITE_ROW)
        {
            return true;
        }

        if (rc == raw.SQLITE_DONE)
        {
            return false;
        }

        raw.sqlite3_reset(statement);
        _errors.Throw(rc, Db, operation);
        return false;
    }

    /// <summary>Runs a statement that returns no rows, then resets it and drops its bindings (which may hold a large value).</summary>
    public void Run(sqlite3_stmt statement, string operation)
    {
        try
        {
            Step(statement, operation);
        }
        finally
        {
            raw.sqlite3_reset(statement);
            raw.sqlite3_clear_bindings(statement);
        }
    }

    /// <summary>Runs one of the parameterless statements (BEGIN, COMMIT, ROLLBACK).</summary>
    public void Run(SqliteStatement which, string operation) => Run(Statement(which), operation);

    /// <summary>The WAL frames this connection wrote since the last call (SQLite's <c>SQLITE_DBSTATUS_CACHE_WRITE</c>, reset).</summary>
    public int TakeFramesWritten()
    {
        raw.sqlite3_db_status(Db, raw.SQLITE_DBSTATUS_CACHE_WRITE, out var frames, out _, 1);
        return frames;
    }

    /// <summary>
    /// Copies what it can of the WAL into the database file without waiting for readers or writers (a passive checkpoint);
    /// another connection's checkpoint in progress is left to finish the work. Returns the frames in the WAL (0 after
    /// another checkpoint's turn).
    /// </summary>
    public int CheckpointPassive()
    {
        var rc = raw.sqlite3_wal_checkpoint_v2(Db, "main", raw.SQLITE_CHECKPOINT_PASSIVE, out var frames, out _);
        if (rc != raw.SQLITE_OK && (rc & 0xFF) != raw.SQLITE_BUSY)
        {
            _errors.Throw(rc, Db, "checkpointing the WAL");
        }

        return rc == raw.SQLITE_OK ? frames : 0;
    }

    /// <summary>True while a transaction is open on this connection.</summary>
    public bool InTransaction => raw.sqlite3_get_autocommit(Db) == 0;

    public void Dispose()
    {
        foreach (var statement in _statements)
        {
            statement?.Dispose();
        }

        raw.sqlite3_close_v2(Db);
    }
}

using DataStore.Sqlite;
using SQLitePCL;

namespace DataStore.ChangeFeed.Sqlite;

/// <summary>
/// The SQLite part of the change feed: a table <c>feed(s INTEGER PRIMARY KEY, c BLOB)</c> in the store's database, one row per
/// commit inserted by the writer inside the commit's own transaction, so the data and its record commit together or not at all.
/// The sequence is the row id: SQLite gives each new row the largest id plus one, and pruning always keeps the latest row, so
/// the sequence keeps rising across restarts, VACUUM and backup. Reads and prunes run on a connection of their own.
/// </summary>
internal sealed class SqliteChangeLog : IChangeLog
{
    private const string CreateTable = "CREATE TABLE IF NOT EXISTS feed(s INTEGER PRIMARY KEY, c BLOB NOT NULL)";
    private const string Insert = "INSERT INTO feed(c) VALUES(?1)";
    private const string Select = "SELECT s, c FROM feed WHERE s > ?1 ORDER BY s LIMIT ?2";
    private const string Latest = "SELECT ifnull(max(s), 0) FROM feed";
    private const string Prune = "DELETE FROM feed WHERE s <= (SELECT max(s) FROM feed) - ?1";
    private const string InsertRestart = "INSERT INTO feed(s, c) SELECT ifnull(max(s), 0) + ?1, x'' FROM feed";

    private readonly SqliteSession _writer;
    private readonly sqlite3_stmt _insert;
    private readonly Func<SqliteSession> _openReader;
    private readonly Action _syncWal;
    private readonly Lock _readerGate = new();
    private SqliteSession? _reader;
    private sqlite3_stmt? _select;
    private sqlite3_stmt? _latest;
    private sqlite3_stmt? _prune;

    private SqliteChangeLog(SqliteSession writer, sqlite3_stmt insert, Func<SqliteSession> openReader, Action syncWal)
    {
        _writer = writer;
        _insert = insert;
        _openReader = openReader;
        _syncWal = syncWal;
    }

    /// <summary>
    /// Creates the table if needed and prepares the writer's insert; <paramref name="openReader"/> opens the log's own
    /// connection, <paramref name="syncWal"/> makes every commit made so far durable.
    /// </summary>
    public static SqliteChangeLog Open(SqliteSession writer, Func<SqliteSession> openReader, Action syncWal)
    {
        writer.Execute(CreateTable, "creating the change log");
        return new SqliteChangeLog(writer, Prepare(writer, Insert), openReader, syncWal);
    }

    /// <summary>Inserts the record of the commit in progress, on the writer's connection, inside its transaction.</summary>
    public void Append(ReadOnlySpan<byte> record)
    {
        _writer.Bind(_insert, 1, record);
        _writer.Run(_insert, "writing the change log");
    }

    public ChangeLogPage Read(long after, int max)
    {
        lock (_readerGate)
        {
            var reader = Reader();
            reader.Execute("BEGIN", "reading the change log");
            try
            {
                var records = new List<ChangeLogEntry>();
                if (max > 0)
                {
                    raw.sqlite3_bind_int64(_select, 1, after);
                    raw.sqlite3_bind_int64(_select, 2, max);
                    try
                    {
                        while (reader.Step(_select!, "reading the change log"))
                        {
                            records.Add(new ChangeLogEntry(raw.sqlite3_column_int64(_select, 0), raw.sqlite3_column_blob(_select, 1).ToArray()));
                        }
                    }
                    finally
                    {
                        raw.sqlite3_reset(_select);
                    }
                }

                long latest;
                try
                {
                    reader.Step(_latest!, "reading the change log");
                    latest = raw.sqlite3_column_int64(_latest, 0);
                }
                finally
                {
                    raw.sqlite3_reset(_latest);
                }

                return new ChangeLogPage(records, latest);
            }
            finally
            {
                raw.sqlite3_exec(reader.Db, "COMMIT");
            }
        }
    }

    void IChangeLog.Prune(int retain)
    {
        lock (_readerGate)
        {
            var reader = Reader();
            raw.sqlite3_bind_int64(_prune, 1, retain);
            reader.Run(_prune!, "pruning the change log");
        }
    }

    /// <summary>On the writer's connection, before the store's first write: the restart record in its own transaction, checkpointed, then the WAL synced.</summary>
    public void AppendRestart(long gap)
    {
        var insert = Prepare(_writer, InsertRestart);
        try
        {
            _writer.Execute("BEGIN IMMEDIATE", "restarting the change log");
            try
            {
                raw.sqlite3_bind_int64(insert, 1, gap);
                _writer.Run(insert, "restarting the change log");
                _writer.Execute("COMMIT", "restarting the change log");
            }
            catch
            {
                raw.sqlite3_exec(_writer.Db, "ROLLBACK");
                throw;
            }
        }
        finally
        {
            insert.Dispose();
        }

        _syncWal();
    }

    public void Dispose()
    {
        _insert.Dispose();
        lock (_readerGate)
        {
            _select?.Dispose();
            _latest?.Dispose();
            _prune?.Dispose();
            _reader?.Dispose();
            _reader = null;
        }
    }

    private SqliteSession Reader()
    {
        if (_reader is null)
        {
            var reader = _openReader();
            try
            {
                _select = Prepare(reader, Select);
                _latest = Prepare(reader, Latest);
                _prune = Prepare(reader, Prune);
            }
            catch
            {
                reader.Dispose();
                throw;
            }

            _reader = reader;
        }

        return _reader;
    }

    private static sqlite3_stmt Prepare(SqliteSession session, string sql)
    {
        var rc = raw.sqlite3_prepare_v3(session.Db, sql, 0x01, out var statement);
        session.Errors.Check(rc, session.Db, "preparing the change log's statements");
        return statement;
    }
}

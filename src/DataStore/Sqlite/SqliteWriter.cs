using DataStore.Batches;
using DataStore.ChangeFeed;
using DataStore.ChangeFeed.Sqlite;
using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// The statements that change the store, run on the one writer connection. Not thread-safe: the store calls it
/// under its write lock. Every commit is a <c>BEGIN IMMEDIATE … COMMIT</c> of one or more callers' writes
/// (<see cref="SqliteWriteCombiner"/>), a batch's preconditions read inside the same transaction. With the change feed
/// on, each caller's write also inserts its change-log record (<see cref="SqliteChangeLog"/>).
/// </summary>
internal sealed partial class SqliteWriter(SqliteSession session) : IDisposable
{
    private readonly ChangeRecord _record = new();
    private int[] _order = [];
    private SqliteChangeLog? _log;

    /// <summary>
    /// Opens the writer connection, switches the database to WAL and creates the table if needed: with a checksum column
    /// when <paramref name="checksums"/> (the manifest's setting). An existing table keeps its columns, which then decide.
    /// </summary>
    public static SqliteWriter Open(string file, SqliteErrors errors, TimeSpan timeout, bool checksums)
    {
        SqliteSession? session = SqliteSession.Open(file, errors, timeout, checksums);
        try
        {
            session.Execute("PRAGMA journal_mode=WAL", "switching to WAL mode");
            session.Execute(checksums ? SqliteSql.CreateChecksummedTable : SqliteSql.CreateTable, "creating the table");
            var hasColumn = SqliteBackup.Scalar(session, SqliteSql.HasChecksumColumn) == 1;
            if (hasColumn != checksums)
            {
                var first = session;
                session = null;
                first.Dispose();
                session = SqliteSession.Open(file, errors, timeout, hasColumn);
            }

            // Checkpoints run off the writer's path (SqliteCheckpointer), fed by the frames this connection reports. When the
            // WAL starts over, its file is cut back to 64 MiB at most (about the size at which the writer checkpoints itself),
            // not below what it reaches between restarts: a file cut back to 16 MiB grew again every cycle, and each Durable
            // commit that grew it paid a block allocation and an inode write in its sync (a third fewer single Durable puts).
            session.Execute("PRAGMA wal_autocheckpoint=0; PRAGMA journal_size_limit=67108864", "configuring the writer connection");
            return new SqliteWriter(session);
        }
        catch
        {
            session?.Dispose();
            throw;
        }
    }

    public SqliteErrors Errors => session.Errors;

    /// <summary>The writer connection itself, for point reads while the write lock is free (<see cref="SqlitePointReads"/>).</summary>
    public SqliteSession Session => session;

    /// <summary>True when the table stores each pair's checksum.</summary>
    public bool Checksums => session.Checksums;

    /// <summary>From now on, logs every commit to the change log this returns (called once, before the first write).</summary>
    public SqliteChangeLog StartChangeLog(Func<SqliteSession> openReader, Action syncWal) => _log = SqliteChangeLog.Open(session, openReader, syncWal);

    /// <summary>Begins a write transaction (<c>BEGIN IMMEDIATE</c>), waiting for other processes' writers up to the busy timeout.</summary>
    public void Begin() => session.Run(SqliteStatement.BeginImmediate, "beginning a write");

    private void RunOne(SqliteStatement which, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, string operation)
    {
        var statement = session.Statement(which);
        session.Bind(statement, 1, key);
        if (which == SqliteStatement.Put)
        {
            session.Bind(statement, 2, value);
            if (session.Checksums)
            {
                session.BindChecksum(statement, 3, key, value);
            }
        }

        session.Run(statement, operation);
    }

    private long DeleteRangeOne(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var statement = session.Statement(end.IsEmpty ? SqliteStatement.DeleteFrom : SqliteStatement.DeleteRange);
        session.Bind(statement, 1, start);
        if (!end.IsEmpty)
        {
            session.Bind(statement, 2, end);
        }

        session.Run(statement, "DeleteRange");
        return raw.sqlite3_changes(session.Db);
    }

    /// <summary>Rebuilds the database without free pages and truncates the WAL.</summary>
    public void Compact()
    {
        session.Execute("VACUUM", "compacting (VACUUM)");
        session.Execute("PRAGMA wal_checkpoint(TRUNCATE)", "checkpointing after VACUUM");
    }

    public void Dispose()
    {
        _log?.Dispose();
        session.Dispose();
    }

    private void RollBackIfOpen()
    {
        if (session.InTransaction)
        {
            raw.sqlite3_exec(session.Db, SqliteSql.Rollback);
        }
    }

    private int FirstFailedPrecondition(WriteBatch batch)
    {
        var statement = session.Statement(SqliteStatement.Get);
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            var condition = batch.Precondition(i);
            bool holds;
            try
            {
                var key = batch.First(condition);
                session.Bind(statement, 1, key);
                var found = session.Step(statement, "checking a precondition");
                var stored = found ? raw.sqlite3_column_blob(statement, 0) : default;
                if (found && session.Checksums && !SqliteSession.Matches(statement, 1, key, stored))
                {
                    Integrity.PairDamage.Throw(session.Errors.Directory, StoreBackend.Sqlite, key, "checking a batch precondition");
                }

                holds = condition.Kind == BatchEntryKind.RequireAbsent ? !found : found && stored.SequenceEqual(batch.Second(condition));
            }
            finally
            {
                raw.sqlite3_reset(statement);
            }

            if (!holds)
            {
                return i;
            }
        }

        return -1;
    }

    // Inside an open transaction: checks the batch's preconditions and, when they hold, applies its operations (puts and
    // deletes in key order, BatchKeyOrder); returns -1, or the index of the first failed precondition (nothing applied).
    private int ApplyBatch(WriteBatch batch)
    {
        var failed = FirstFailedPrecondition(batch);
        if (failed >= 0)
        {
            return failed;
        }

        var sorted = BatchKeyOrder.TrySort(batch, ref _order);
        for (var i = 0; i < batch.OperationCount; i++)
        {
            Apply(batch, batch.Operation(sorted ? _order[i] : i));
        }

        return -1;
    }

    private void Apply(WriteBatch batch, BatchEntry operation)
    {
        var first = batch.First(operation);
        switch (operation.Kind)
        {
            case BatchEntryKind.Put:
                RunOne(SqliteStatement.Put, first, batch.Second(operation), "Put in a batch");
                break;
            case BatchEntryKind.Delete:
                RunOne(SqliteStatement.Delete, first, default, "Delete in a batch");
                break;
            case BatchEntryKind.DeletePrefix:
                DeleteRangeOne(first, KeyOrder.TryGetPrefixEnd(first, out var end) ? end : default);
                break;
            case BatchEntryKind.DeleteRange:
                DeleteRangeOne(first, batch.Second(operation));
                break;
        }
    }
}

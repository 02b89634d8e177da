using DataStore.Batches;
using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// The statements that change the store, run on the one writer connection. Not thread-safe: the store calls it
/// under its write lock. Single operations autocommit; a batch runs in <c>BEGIN IMMEDIATE … COMMIT</c> with its
/// preconditions read inside the same transaction.
/// </summary>
internal sealed class SqliteWriter(SqliteSession session) : IDisposable
{
    /// <summary>
    /// Opens the writer connection, switches the database to WAL and creates the table if needed: with a checksum column
    /// when <paramref name="checksums"/> (the manifest's setting). An existing table keeps its columns, which then decide.
    /// </summary>
    public static SqliteWriter Open(string file, SqliteErrors errors, TimeSpan timeout, bool checksums)
    {
        var session = SqliteSession.Open(file, errors, timeout, checksums);
        try
        {
            session.Execute("PRAGMA journal_mode=WAL", "switching to WAL mode");
            session.Execute(checksums ? SqliteSql.CreateChecksummedTable : SqliteSql.CreateTable, "creating the table");
            var hasColumn = SqliteBackup.Scalar(session, SqliteSql.HasChecksumColumn) == 1;
            if (hasColumn == checksums)
            {
                return new SqliteWriter(session);
            }

            session.Dispose();
            return new SqliteWriter(SqliteSession.Open(file, errors, timeout, hasColumn));
        }
        catch
        {
            session.Dispose();
            throw;
        }
    }

    public SqliteErrors Errors => session.Errors;

    /// <summary>The writer connection itself, for point reads while the write lock is free (<see cref="SqlitePointReads"/>).</summary>
    public SqliteSession Session => session;

    /// <summary>True when the table stores each pair's checksum.</summary>
    public bool Checksums => session.Checksums;

    /// <summary>Runs a Put (key, value) or Delete (key) statement.</summary>
    public void Run(SqliteStatement which, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, string operation)
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

    /// <summary>Deletes [start, end) (an empty end is open) and returns how many keys went.</summary>
    public long DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
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

    /// <summary>Commits the batch atomically; returns -1, or the index of the first failed precondition after rolling back.</summary>
    public int Write(WriteBatch batch)
    {
        session.Run(SqliteStatement.BeginImmediate, "beginning a batch");
        try
        {
            var failed = FirstFailedPrecondition(batch);
            if (failed >= 0)
            {
                session.Run(SqliteStatement.Rollback, "rolling back a batch");
                return failed;
            }

            for (var i = 0; i < batch.OperationCount; i++)
            {
                Apply(batch, batch.Operation(i));
            }

            session.Run(SqliteStatement.Commit, "committing a batch");
            return -1;
        }
        catch
        {
            if (session.InTransaction)
            {
                raw.sqlite3_exec(session.Db, SqliteSql.Rollback);
            }

            throw;
        }
    }

    /// <summary>Rebuilds the database without free pages and truncates the WAL.</summary>
    public void Compact()
    {
        session.Execute("VACUUM", "compacting (VACUUM)");
        session.Execute("PRAGMA wal_checkpoint(TRUNCATE)", "checkpointing after VACUUM");
    }

    public void Dispose() => session.Dispose();

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

    private void Apply(WriteBatch batch, BatchEntry operation)
    {
        var first = batch.First(operation);
        switch (operation.Kind)
        {
            case BatchEntryKind.Put:
                Run(SqliteStatement.Put, first, batch.Second(operation), "Put in a batch");
                break;
            case BatchEntryKind.Delete:
                Run(SqliteStatement.Delete, first, default, "Delete in a batch");
                break;
            case BatchEntryKind.DeletePrefix:
                DeleteRange(first, KeyOrder.TryGetPrefixEnd(first, out var end) ? end : default);
                break;
            case BatchEntryKind.DeleteRange:
                DeleteRange(first, batch.Second(operation));
                break;
        }
    }
}

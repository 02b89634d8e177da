using System.Buffers;
using DataStore.Batches;
using Microsoft.Extensions.Logging;
using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// The default backend: SQLite in WAL mode, one <c>WITHOUT ROWID</c> table. One writer connection behind a lock
/// with a timeout; a pool of reader connections for point reads and snapshot scans; WAL syncs in the background
/// (Relaxed) or before a durable write returns, shared by concurrent writers.
/// </summary>
internal sealed class SqliteStore : KeyValueStoreBase
{
    /// <summary>The database file's name inside the store directory.</summary>
    public const string DatabaseFile = "store.sqlite";

    private const StoreCapabilities SqliteCapabilities = StoreCapabilities.Persistent | StoreCapabilities.SharedAcrossProcesses |
        StoreCapabilities.SnapshotScans | StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction;

    private readonly object _writeLock = new();
    private readonly string _directory;
    private readonly Durability _durability;
    private readonly TimeSpan _timeout;
    private readonly SqliteSession _writer;
    private readonly SqliteSessionPool _readers;
    private readonly WalFileSync _walSync;
    private readonly Timer? _backgroundSync;
    private readonly ILogger _logger;

    private SqliteStore(string directory, Durability durability, DataStoreOptions options, SqliteSession writer, ILogger logger)
    {
        _directory = directory;
        _durability = durability;
        _timeout = options.Timeout;
        _writer = writer;
        _logger = logger;
        var file = System.IO.Path.Combine(directory, DatabaseFile);
        _readers = new SqliteSessionPool(() => SqliteSession.Open(file, writer.Errors, options.Timeout));
        _walSync = new WalFileSync(file + "-wal");
        if (durability == Durability.Relaxed)
        {
            _backgroundSync = new Timer(_ => SyncInBackground(), null, options.SyncInterval, options.SyncInterval);
        }
    }

    public override string Path => _directory;

    public override StoreBackend Backend => StoreBackend.Sqlite;

    public override StoreCapabilities Capabilities => SqliteCapabilities;

    public override Durability Durability => _durability;

    public static SqliteStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger)
    {
        var errors = new SqliteErrors(directory, options.Timeout);
        var writer = SqliteSession.Open(System.IO.Path.Combine(directory, DatabaseFile), errors, options.Timeout);
        try
        {
            writer.Execute("PRAGMA journal_mode=WAL", "switching to WAL mode");
            writer.Execute(SqliteSql.CreateTable, "creating the table");
            return new SqliteStore(directory, durability, options, writer, logger);
        }
        catch
        {
            writer.Dispose();
            throw;
        }
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        long ticket;
        EnterWriter();
        try
        {
            var statement = _writer.Statement(SqliteStatement.Put);
            _writer.Bind(statement, 1, key);
            _writer.Bind(statement, 2, value);
            _writer.Run(statement, "Put");
            ticket = _walSync.Committed();
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }

        AfterCommit(ticket);
    }

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        var session = _readers.Rent();
        var statement = session.Statement(SqliteStatement.Get);
        try
        {
            session.Bind(statement, 1, key);
            if (!session.Step(statement, "Get"))
            {
                return false;
            }

            var value = raw.sqlite3_column_blob(statement, 0);
            destination.Write(value);
            return true;
        }
        finally
        {
            raw.sqlite3_reset(statement);
            _readers.Return(session);
        }
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        var session = _readers.Rent();
        var statement = session.Statement(SqliteStatement.Get);
        try
        {
            session.Bind(statement, 1, key);
            if (!session.Step(statement, "Get"))
            {
                return -1;
            }

            var value = raw.sqlite3_column_blob(statement, 0);
            if (value.Length <= destination.Length)
            {
                value.CopyTo(destination);
            }

            return value.Length;
        }
        finally
        {
            raw.sqlite3_reset(statement);
            _readers.Return(session);
        }
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key)
    {
        var session = _readers.Rent();
        var statement = session.Statement(SqliteStatement.HaveKey);
        try
        {
            session.Bind(statement, 1, key);
            return session.Step(statement, "HaveKey");
        }
        finally
        {
            raw.sqlite3_reset(statement);
            _readers.Return(session);
        }
    }

    protected override void DeleteCore(ReadOnlySpan<byte> key)
    {
        long ticket;
        EnterWriter();
        try
        {
            var statement = _writer.Statement(SqliteStatement.Delete);
            _writer.Bind(statement, 1, key);
            _writer.Run(statement, "Delete");
            ticket = _walSync.Committed();
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }

        AfterCommit(ticket);
    }

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        long ticket;
        long removed;
        EnterWriter();
        try
        {
            removed = RunDeleteRange(start, end);
            ticket = _walSync.Committed();
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }

        AfterCommit(ticket);
        return removed;
    }

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly) =>
        new SqliteCursor(_readers, start, end, keysOnly);

    protected override int WriteCore(WriteBatch batch)
    {
        long ticket;
        EnterWriter();
        try
        {
            _writer.Run(SqliteStatement.BeginImmediate, "beginning a batch");
            try
            {
                var failed = FirstFailedPrecondition(batch);
                if (failed >= 0)
                {
                    _writer.Run(SqliteStatement.Rollback, "rolling back a batch");
                    return failed;
                }

                for (var i = 0; i < batch.OperationCount; i++)
                {
                    Apply(batch, batch.Operation(i));
                }

                _writer.Run(SqliteStatement.Commit, "committing a batch");
            }
            catch
            {
                if (_writer.InTransaction)
                {
                    raw.sqlite3_exec(_writer.Db, SqliteSql.Rollback);
                }

                throw;
            }

            ticket = _walSync.Committed();
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }

        AfterCommit(ticket);
        return -1;
    }

    protected override void CompactCore()
    {
        EnterWriter();
        try
        {
            _writer.Execute("VACUUM", "compacting (VACUUM)");
            _writer.Execute("PRAGMA wal_checkpoint(TRUNCATE)", "checkpointing after VACUUM");
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }
    }

    protected override void Dispose(bool disposing)
    {
        if (_backgroundSync is not null)
        {
            using var stopped = new ManualResetEvent(false);
            if (_backgroundSync.Dispose(stopped))
            {
                stopped.WaitOne();
            }
        }

        // A write in progress finishes first; it cannot outlast the busy timeout.
        lock (_writeLock)
        {
            SyncInBackground();
            _writer.Dispose();
            _readers.Dispose();
            _walSync.Dispose();
        }
    }

    private int FirstFailedPrecondition(WriteBatch batch)
    {
        var statement = _writer.Statement(SqliteStatement.Get);
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            var condition = batch.Precondition(i);
            bool holds;
            try
            {
                _writer.Bind(statement, 1, batch.First(condition));
                var found = _writer.Step(statement, "checking a precondition");
                holds = condition.Kind == BatchEntryKind.RequireAbsent
                    ? !found
                    : found && raw.sqlite3_column_blob(statement, 0).SequenceEqual(batch.Second(condition));
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
                var put = _writer.Statement(SqliteStatement.Put);
                _writer.Bind(put, 1, first);
                _writer.Bind(put, 2, batch.Second(operation));
                _writer.Run(put, "Put in a batch");
                break;
            case BatchEntryKind.Delete:
                var delete = _writer.Statement(SqliteStatement.Delete);
                _writer.Bind(delete, 1, first);
                _writer.Run(delete, "Delete in a batch");
                break;
            case BatchEntryKind.DeletePrefix:
                RunDeleteRange(first, KeyOrder.TryGetPrefixEnd(first, out var end) ? end : default);
                break;
            case BatchEntryKind.DeleteRange:
                RunDeleteRange(first, batch.Second(operation));
                break;
        }
    }

    private long RunDeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var statement = _writer.Statement(end.IsEmpty ? SqliteStatement.DeleteFrom : SqliteStatement.DeleteRange);
        _writer.Bind(statement, 1, start);
        if (!end.IsEmpty)
        {
            _writer.Bind(statement, 2, end);
        }

        _writer.Run(statement, "DeleteRange");
        return raw.sqlite3_changes(_writer.Db);
    }

    private void EnterWriter()
    {
        if (!Monitor.TryEnter(_writeLock, _timeout))
        {
            throw new StoreTimeoutException(_directory, StoreBackend.Sqlite, _timeout);
        }

        if (IsDisposed)
        {
            Monitor.Exit(_writeLock);
            ThrowIfDisposed();
        }
    }

    private void AfterCommit(long ticket)
    {
        if (_durability == Durability.Durable)
        {
            _walSync.WaitUntilSynced(ticket);
        }
    }

    private void SyncInBackground()
    {
        try
        {
            _walSync.SyncIfDirty();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            _logger.LogWarning(e, "Background sync of the SQLite WAL at {Path} failed; will retry", _directory);
        }
    }
}

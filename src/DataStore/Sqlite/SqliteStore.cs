using System.Buffers;
using DataStore.ChangeFeed;
using DataStore.Sync;
using DataStore.Writes;
using Microsoft.Extensions.Logging;

namespace DataStore.Sqlite;

/// <summary>
/// The default backend: SQLite in WAL mode, one <c>WITHOUT ROWID</c> table. One writer connection behind a lock
/// with a timeout, which also serves point reads while no write holds it (<see cref="SqlitePointReads"/>); a pool
/// of reader connections for the other point reads and for snapshot scans; WAL syncs in the background
/// (Relaxed) or before a durable write returns, shared by concurrent writers.
/// </summary>
internal sealed class SqliteStore : KeyValueStoreBase, IChangeFeedStore, IRestartMarkedStore
{
    /// <summary>The database file's name inside the store directory.</summary>
    public const string DatabaseFile = "store.sqlite";

    private const StoreCapabilities SqliteCapabilities = StoreCapabilities.Persistent | StoreCapabilities.SharedAcrossProcesses |
        StoreCapabilities.SnapshotScans | StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction | StoreCapabilities.ChangeFeed;

    private readonly StoreWriterLock _writeLock;
    private readonly string _directory;
    private readonly Durability _durability;
    private readonly TimeSpan _timeout;
    private readonly SqliteWriter _writer;
    private readonly SqliteWriteCombiner _writes;
    private readonly SqliteSessionPool _readers;
    private readonly SqlitePointReads _pointReads;
    private readonly WalFileSync _walSync;
    private readonly SqliteCheckpointer _checkpointer;
    private readonly BackgroundSync? _backgroundSync;
    private readonly ILogger _logger;
    private ChangeFeedState? _feed;

    private SqliteStore(string directory, string file, Durability durability, DataStoreOptions options, SqliteWriter writer, ILogger logger)
    {
        _directory = directory;
        _durability = durability;
        _timeout = options.Timeout;
        _writeLock = new StoreWriterLock(this, options.Timeout);
        var checkpointTurn = new SqliteCheckpointTurn();
        _writer = writer;
        _writes = new SqliteWriteCombiner(writer, _writeLock, checkpointTurn, Committed, durability == Durability.Durable ? WaitUntilSynced : null);
        _logger = logger;
        _readers = new SqliteSessionPool(() => SqliteSession.Open(file, writer.Errors, options.Timeout, writer.Checksums));
        _pointReads = new SqlitePointReads(_writeLock, checkpointTurn, writer, _readers);
        _walSync = new WalFileSync(file + "-wal");
        _checkpointer = new SqliteCheckpointer(
            writer.Session, _writeLock, checkpointTurn, () => SqliteSession.Open(file, writer.Errors, options.Timeout), _walSync.SyncIfDirty, logger);
        _backgroundSync = BackgroundSync.StartIfRelaxed(durability, options.SyncInterval, SyncInBackground);
    }

    public override string Path => _directory;

    public override StoreBackend Backend => StoreBackend.Sqlite;

    public override StoreCapabilities Capabilities => SqliteCapabilities;

    public override Durability Durability => _durability;

    public bool ChangeFeedOn => _feed is not null;

    public static SqliteStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, Backends.ManifestSettings settings)
    {
        var file = System.IO.Path.Combine(directory, DatabaseFile);
        Files.SqliteTruncationCheck.Run(directory, file);
        Files.SqliteWalCheck.Run(directory, file);
        var errors = new SqliteErrors(directory, options.Timeout);
        if (settings.FormatVersion >= Manifest.StoreManifest.SqlitePageChecksumsFormatVersion)
        {
            Pages.SqlitePageFormat.Prepare(directory, file, errors, options.Timeout);
        }

        var writer = SqliteWriter.Open(file, errors, options.Timeout, settings.Checksums);
        return new SqliteStore(directory, file, durability, options, writer, logger);
    }

    /// <summary>The writer's queue of concurrent callers (for tests).</summary>
    internal SqliteWriteCombiner Writes => _writes;

    /// <summary>The background checkpointer (for tests).</summary>
    internal SqliteCheckpointer Checkpointer => _checkpointer;

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        _writes.Write(_writer.Errors, WriteKind.Put, key, value, null, out var ticket);
        AfterCommit(ticket);
    }

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        using var lookup = new SqliteLookup(_pointReads, SqliteStatement.Get, key, "Get");
        if (lookup.Found)
        {
            destination.Write(lookup.CheckedValue(key));
        }

        return lookup.Found;
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        using var lookup = new SqliteLookup(_pointReads, SqliteStatement.Get, key, "Get");
        if (!lookup.Found)
        {
            return -1;
        }

        var value = lookup.CheckedValue(key);
        if (value.Length <= destination.Length)
        {
            value.CopyTo(destination);
        }

        return value.Length;
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key)
    {
        using var lookup = new SqliteLookup(_pointReads, SqliteStatement.HaveKey, key, "HaveKey");
        return lookup.Found;
    }

    protected override void DeleteCore(ReadOnlySpan<byte> key)
    {
        _writes.Write(_writer.Errors, WriteKind.Delete, key, default, null, out var ticket);
        AfterCommit(ticket);
    }

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var removed = _writes.Write(_writer.Errors, WriteKind.DeleteRange, start, end, null, out var ticket);
        AfterCommit(ticket);
        return removed;
    }

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly) =>
        new SqliteCursor(_readers, start, end, keysOnly);

    protected override int WriteCore(WriteBatch batch)
    {
        var failed = (int)_writes.Write(_writer.Errors, WriteKind.Batch, default, default, batch, out var ticket);
        if (failed >= 0)
        {
            return failed;
        }

        AfterCommit(ticket);
        return -1;
    }

    protected override void CompactCore() => _checkpointer.RunBetweenCycles(() =>
    {
        using (_writeLock.Enter())
        {
            _writer.Compact();
        }
    });

    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        SqliteBackup.Copy(System.IO.Path.Combine(_directory, DatabaseFile), _writer.Errors, _timeout, destination, progress, cancellationToken);

    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) =>
        SqliteIntegrity.Check(System.IO.Path.Combine(_directory, DatabaseFile), _writer.Errors, _timeout, cancellationToken);

    protected override void Dispose(bool disposing)
    {
        _backgroundSync?.Dispose();
        _feed?.Dispose();
        _checkpointer.Dispose();

        // A write in progress finishes first; it cannot outlast the busy timeout.
        using (_writeLock.EnterToClose())
        {
            SyncInBackground();
            _writer.Dispose();
            _readers.Dispose();
            _walSync.Dispose();
        }
    }

    // Called under the write lock right after a commit: feeds the checkpointer and takes a ticket for the WAL sync.
    private long Committed()
    {
        _checkpointer.Committed();
        return _walSync.Committed();
    }

    private void WaitUntilSynced(long ticket) => _walSync.WaitUntilSynced(ticket, _directory, StoreBackend.Sqlite);

    private void AfterCommit(long ticket)
    {
        if (_durability == Durability.Durable)
        {
            WaitUntilSynced(ticket);
        }

        _feed?.Committed();
    }

    public bool MarksRestart => _feed is not null;

    public bool ClosedCleanly => true; // a close that fails throws from Dispose(bool)

    public void StartChangeFeed(ChangeFeed.ChangeFeedSettings settings, ILogger logger)
    {
        var file = System.IO.Path.Combine(_directory, DatabaseFile);
        var log = _writer.StartChangeLog(
            () => SqliteSession.Open(file, _writer.Errors, _timeout, _writer.Checksums),
            () => _walSync.WaitUntilSynced(_walSync.Committed(), _directory, StoreBackend.Sqlite));
        // synchronous=NORMAL: a commit, Durable too, is visible before the WAL's group sync that a Durable caller waits for.
        ChangeLogRestart.Prepare(log, _directory, StoreBackend.Sqlite, shownBeforeSynced: true);
        _feed = ChangeFeedState.Start(log, _directory, settings, logger);
    }

    public ChangeLogPage ReadChanges(long after, int max) => ChangeLogReads.InCall(this, () => _feed!.Log.Read(after, max));

    private void SyncInBackground()
    {
        try
        {
            _walSync.SyncIfDirty();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            Diagnostics.StoreLog.BackgroundSyncFailed(_logger, e, StoreBackend.Sqlite, _directory);
        }
    }
}

using DataStore.Sync;
using LiteDB.Engine;
using Microsoft.Extensions.Logging;

namespace DataStore.LiteDb;

/// <summary>
/// LiteDB 5 in direct mode over the store's own file streams: one writer at a time behind a lock with a timeout,
/// each write an explicit LiteDB transaction that returns only once LiteDB's log writer has written it to the
/// log file; point reads on the caller's thread; scans on a thread of their own holding a snapshot. The log is
/// fsynced in the background (Relaxed) or before a durable write returns, shared by concurrent writers.
/// </summary>
internal sealed partial class LiteDbStore : KeyValueStoreBase
{
    public const string DataFile = "store.litedb";
    public const string LogFile = "store-log.litedb";

    private const StoreCapabilities LiteDbCapabilities = StoreCapabilities.Persistent | StoreCapabilities.SnapshotScans |
        StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction | StoreCapabilities.ChangeFeed;

    private readonly StoreWriterLock _writeLock;
    private readonly LiteDbCursors _cursors = new();
    private readonly string _directory;
    private readonly Durability _durability;
    private readonly TimeSpan _timeout;
    private readonly LiteDbErrors _errors;
    private readonly LiteDbEngineGate _engine;
    private readonly LiteDbKeys _keys;
    private readonly ILogger _logger;
    private readonly LiteDbProcessLock _processLock;
    private readonly BackgroundSync? _backgroundSync;
    private volatile LiteDbEngine _db;

    private LiteDbStore(string directory, Durability durability, DataStoreOptions options, LiteDbKeys keys, ILogger logger, LiteDbProcessLock processLock, LiteDbEngine db)
    {
        _directory = directory;
        _durability = durability;
        _timeout = options.Timeout;
        _writeLock = new StoreWriterLock(this, options.Timeout);
        _errors = new LiteDbErrors(directory);
        _engine = new LiteDbEngineGate(directory, options.Timeout);
        _keys = keys;
        _logger = logger;
        _processLock = processLock;
        _db = db;
        _backgroundSync = BackgroundSync.StartIfRelaxed(durability, options.SyncInterval, SyncInBackground);
    }

    public override string Path => _directory;

    public override StoreBackend Backend => StoreBackend.LiteDb;

    public override StoreCapabilities Capabilities => LiteDbCapabilities;

    public override Durability Durability => _durability;

    public static LiteDbStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, LiteDbKeys? keys = null, bool checksums = true)
    {
        var errors = new LiteDbErrors(directory);
        keys ??= LiteDbKeys.Default;
        LiteDbProcessLock? processLock = null;
        try
        {
            processLock = LiteDbProcessLock.Acquire(directory, options.Timeout);
            var db = LiteDbEngine.Open(directory, keys);
            db.Table.RequireChecksums = checksums;
            return new LiteDbStore(directory, durability, options, keys, logger, processLock, db);
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            processLock?.Dispose();
            throw errors.Translate(e, "Opening the store");
        }
        catch
        {
            processLock?.Dispose();
            throw;
        }
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) =>
        Transact("Put", new LiteDbSpans(key, value), static (db, pair) =>
        {
            db.Table.Put(pair.First, pair.Second);
            return 0;
        }, static (record, pair) => record.Add(KeyChangeKind.Put, pair.First));

    protected override void DeleteCore(ReadOnlySpan<byte> key) =>
        Transact("Delete", new LiteDbSpans(key, default), static (db, pair) =>
        {
            db.Table.Delete(pair.First);
            return 0;
        }, static (record, pair) => record.Add(KeyChangeKind.Delete, pair.First));

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) =>
        Transact("DeleteRange", new LiteDbSpans(start, end), static (db, range) => db.Table.DeleteRange(range.First, range.Second),
            static (record, range) => record.Add(KeyChangeKind.DeleteRange, range.First, range.Second));

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        LiteDbScan scan;
        try
        {
            scan = new LiteDbScan(_engine, () => _db.Table, start, end, keysOnly, UnderWriteLock);
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            throw _errors.Translate(e, "Scanning");
        }

        return _cursors.Add(this, scan, e => LiteDbErrors.IsStoreFailure(e) || (e is ObjectDisposedException && !IsDisposed) ? _errors.Translate(e, "Scanning") : e);
    }

    protected override int WriteCore(WriteBatch batch)
    {
        var failed = Transact("Write", batch, static (db, batch) => db.Write(batch), static (record, batch) => record.Add(batch), isBatch: true);
        return failed >= 0 ? (int)failed : -1;
    }

    protected override void Dispose(bool disposing)
    {
        _backgroundSync?.Dispose();

        // A whole-store read holds the write lock until it is closed.
        _cursors.CloseAll();
        using (_writeLock.EnterToClose())
        {
            _cursors.CloseAll();
            _feed?.Dispose(); // prunes a last time on the open engine
            _closedCleanly = false;
            try
            {
                using var turn = _engine.Engine();
                _db.Dispose();
                _closedCleanly = true;
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
            {
                Diagnostics.StoreLog.CloseFailed(_logger, e, StoreBackend.LiteDb, _directory);
            }
            finally
            {
                _processLock.Dispose();
            }
        }
    }

    private static void Rollback(ILiteEngine engine)
    {
        try
        {
            engine.Rollback();
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            // The original failure is the one to report.
        }
    }

    /// <summary>
    /// Runs <paramref name="body"/> in one LiteDB transaction under the write lock, commits it unless a batch's
    /// body returns a failed precondition's index (0 or more), with the commit's change-log record when the feed is on, waits for LiteDB's log writer, then for the sync a
    /// durable write needs. Returns the body's result (removed count, or -1 / the failed index for a batch).
    /// </summary>
    private long Transact<TState>(string operation, TState state, Func<LiteDbEngine, TState, long> body, Action<ChangeFeed.ChangeRecord, TState>? describe, bool isBatch = false)
        where TState : allows ref struct
    {
        long result;
        long ticket;
        for (var attempt = 0; ; attempt++)
        {
            using (_writeLock.Enter())
            {
                var db = _db;
                var began = false;
                try
                {
                    using (_engine.Engine())
                    {
                        db.Engine.BeginTrans();
                        began = true;
                        try
                        {
                            result = body(db, state);
                            if (isBatch && result >= 0)
                            {
                                db.Engine.Rollback();
                                return result;
                            }

                            AppendChange(db, state, describe);
                            db.Engine.Commit();
                            _log?.Committed();
                        }
                        catch (Exception e)
                        {
                            var failure = Platform.LibraryThreads.AsStartFailure(e); // LiteDB's log writer
                            _log?.Abandoned();
                            Rollback(db.Engine);
                            if (failure is not null)
                            {
                                throw failure;
                            }

                            throw;
                        }
                    }

                    ticket = db.Committed();
                    _log?.Written();
                    break;
                }
                catch (Exception e) when (LiteDbErrors.IsStoreFailure(e) || e is ObjectDisposedException)
                {
                    // LiteDB stopped its engine: reopen it. A write the stopped engine refused at its start wrote
                    // nothing and runs again on the fresh engine; one that failed later is reported.
                    if (!LiteDbErrors.StopsEngine(e) || !TryReopen(db, e) || began || attempt > 0)
                    {
                        throw _errors.Translate(e, operation);
                    }
                }
            }
        }

        AfterCommit(ticket);
        _feed?.Committed();
        return result;
    }

    private T Guarded<T>(string operation, Func<T> action)
    {
        try
        {
            return action();
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            throw _errors.Translate(e, operation);
        }
    }

    private void UnderWriteLock(Action action)
    {
        using (_writeLock.Enter())
        {
            action();
        }
    }

    private void AfterCommit(long ticket)
    {
        if (_durability != Durability.Durable)
        {
            return;
        }

        _db.WaitUntilSynced(ticket, _directory, StoreBackend.LiteDb);
    }

    private void SyncInBackground()
    {
        try
        {
            _db.SyncIfDirty();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            Diagnostics.StoreLog.BackgroundSyncFailed(_logger, e, StoreBackend.LiteDb, _directory);
        }
    }
}

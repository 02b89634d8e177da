using System.Buffers;
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
        StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction;

    private const int GetAttempts = 100;

    private readonly object _writeLock = new();
    private readonly LiteDbCursors _cursors = new();
    private readonly string _directory;
    private readonly Durability _durability;
    private readonly TimeSpan _timeout;
    private readonly LiteDbErrors _errors;
    private readonly LiteDbKeys _keys;
    private readonly ILogger _logger;
    private readonly LiteDbProcessLock _processLock;
    private readonly Timer? _backgroundSync;
    private volatile LiteDbEngine _db;

    private LiteDbStore(string directory, Durability durability, DataStoreOptions options, LiteDbKeys keys, ILogger logger, LiteDbProcessLock processLock, LiteDbEngine db)
    {
        _directory = directory;
        _durability = durability;
        _timeout = options.Timeout;
        _errors = new LiteDbErrors(directory);
        _keys = keys;
        _logger = logger;
        _processLock = processLock;
        _db = db;
        if (durability == Durability.Relaxed)
        {
            _backgroundSync = new Timer(_ => SyncInBackground(), null, options.SyncInterval, options.SyncInterval);
        }
    }

    public override string Path => _directory;

    public override StoreBackend Backend => StoreBackend.LiteDb;

    public override StoreCapabilities Capabilities => LiteDbCapabilities;

    public override Durability Durability => _durability;

    public static LiteDbStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, LiteDbKeys? keys = null)
    {
        var errors = new LiteDbErrors(directory);
        keys ??= LiteDbKeys.Default;
        LiteDbProcessLock? processLock = null;
        try
        {
            processLock = LiteDbProcessLock.Acquire(directory, options.Timeout);
            var db = LiteDbEngine.Open(directory, keys);
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
        });

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        for (var attempt = 0; ; attempt++)
        {
            var db = _db;
            var doc = Read(db, key, "Get", static (table, key) => table.Find(key.First));
            if (doc is null)
            {
                return false;
            }

            if (!LiteDbTable.IsChunked(doc))
            {
                destination.Write(LiteDbTable.InlineValue(doc));
                return true;
            }

            var length = LiteDbTable.ValueLength(doc);
            var span = destination.GetSpan(length)[..length];
            if (Copy(db, doc, span, attempt))
            {
                destination.Advance(length);
                return true;
            }
        }
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        for (var attempt = 0; ; attempt++)
        {
            var db = _db;
            var doc = Read(db, key, "Get", static (table, key) => table.Find(key.First));
            if (doc is null)
            {
                return -1;
            }

            var length = LiteDbTable.ValueLength(doc);
            if (length > destination.Length)
            {
                return length;
            }

            if (!LiteDbTable.IsChunked(doc))
            {
                LiteDbTable.InlineValue(doc).CopyTo(destination);
                return length;
            }

            if (Copy(db, doc, destination, attempt))
            {
                return length;
            }
        }
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key) => Read(_db, key, "HaveKey", static (table, key) => table.Contains(key.First));

    protected override void DeleteCore(ReadOnlySpan<byte> key) =>
        Transact("Delete", new LiteDbSpans(key, default), static (db, pair) =>
        {
            db.Table.Delete(pair.First);
            return 0;
        });

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) =>
        Transact("DeleteRange", new LiteDbSpans(start, end), static (db, range) => db.Table.DeleteRange(range.First, range.Second));

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        LiteDbScan scan;
        try
        {
            scan = new LiteDbScan(() => _db.Table, start, end, keysOnly, UnderWriteLock);
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            throw _errors.Translate(e, "Scanning");
        }

        return _cursors.Add(scan, e => LiteDbErrors.IsStoreFailure(e) ? _errors.Translate(e, "Scanning") : e);
    }

    protected override int WriteCore(WriteBatch batch)
    {
        var failed = Transact("Write", batch, static (db, batch) => db.Write(batch), isBatch: true);
        return failed >= 0 ? (int)failed : -1;
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

        // A whole-store read holds the write lock until it is closed.
        _cursors.CloseAll();
        lock (_writeLock)
        {
            _cursors.CloseAll();
            try
            {
                _db.Dispose();
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
            {
                _logger.LogWarning(e, "Closing the LiteDb store at {Path} failed", _directory);
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
    /// body returns a failed precondition's index (0 or more), waits for LiteDB's log writer, then for the sync a
    /// durable write needs. Returns the body's result (removed count, or -1 / the failed index for a batch).
    /// </summary>
    private long Transact<TState>(string operation, TState state, Func<LiteDbEngine, TState, long> body, bool isBatch = false)
        where TState : allows ref struct
    {
        long result;
        long ticket;
        EnterWriter();
        try
        {
            var db = _db;
            try
            {
                db.Engine.BeginTrans();
                try
                {
                    result = body(db, state);
                    if (isBatch && result >= 0)
                    {
                        db.Engine.Rollback();
                        return result;
                    }

                    db.Engine.Commit();
                }
                catch
                {
                    Rollback(db.Engine);
                    throw;
                }

                ticket = db.Committed();
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
            {
                throw _errors.Translate(e, operation);
            }
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }

        AfterCommit(ticket);
        return result;
    }

    // Point reads take no lock; a read that fails because Compact replaced the engine under it runs again.
    private T Read<T>(LiteDbEngine db, ReadOnlySpan<byte> key, string operation, Func<LiteDbTable, LiteDbSpans, T> read)
    {
        while (true)
        {
            try
            {
                return read(db.Table, new LiteDbSpans(key, default));
            }
            catch (Exception e) when (LiteDbErrors.IsStoreFailure(e) || e is ObjectDisposedException)
            {
                if (ReferenceEquals(db, _db) || IsDisposed)
                {
                    throw e is ObjectDisposedException ? e : _errors.Translate(e, operation);
                }

                db = _db;
            }
        }
    }

    // Copies a chunked value; false when a concurrent overwrite removed its chunks (the caller reads the key again).
    private bool Copy(LiteDbEngine db, LiteDB.BsonDocument doc, Span<byte> destination, int attempt)
    {
        bool copied;
        try
        {
            copied = db.Table.TryCopyValue(doc, destination);
        }
        catch (Exception e) when ((LiteDbErrors.IsStoreFailure(e) || e is ObjectDisposedException) && !ReferenceEquals(db, _db) && !IsDisposed)
        {
            return false; // Compact replaced the engine: read the key again
        }
        catch (Exception e) when (LiteDbErrors.IsStoreFailure(e))
        {
            throw _errors.Translate(e, "Get");
        }

        if (!copied && attempt >= GetAttempts)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, _directory, StoreBackend.LiteDb,
                $"the chunks of a {destination.Length}-byte value stayed missing over {GetAttempts} reads.");
        }

        return copied;
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
        EnterWriter();
        try
        {
            action();
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }
    }

    private void EnterWriter()
    {
        if (!Monitor.TryEnter(_writeLock, _timeout))
        {
            throw new StoreTimeoutException(_directory, StoreBackend.LiteDb, _timeout);
        }

        if (IsDisposed)
        {
            Monitor.Exit(_writeLock);
            ThrowIfDisposed();
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
            _logger.LogWarning(e, "Background sync of the LiteDB log at {Path} failed; will retry", _directory);
        }
    }
}

using System.Buffers;
using DataStore.ChangeFeed;
using DataStore.Sync;
using DataStore.Writes;
using Microsoft.Extensions.Logging;

namespace DataStore.Lmdb;

/// <summary>
/// The LMDB backend: one environment per directory and process (<see cref="LmdbEnvironment"/>), point reads on
/// pooled read transactions, writes committed without sync (concurrent writers' in one shared transaction), then
/// synced before returning (Durable, shared by concurrent writers) or in the background every
/// <see cref="DataStoreOptions.SyncInterval"/> (Relaxed).
/// </summary>
internal sealed unsafe partial class LmdbStore : KeyValueStoreBase, IChangeFeedStore
{
    private const StoreCapabilities LmdbCapabilities = StoreCapabilities.Persistent | StoreCapabilities.SharedAcrossProcesses |
        StoreCapabilities.SnapshotScans | StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction | StoreCapabilities.ChangeFeed;

    // Not an LMDB code: a point read found a pair that failed its checksum (ADR 0014).
    private const int DamagedPair = int.MinValue;

    private readonly LmdbEnvironment _env;
    private readonly LmdbErrors _errors;
    private readonly Durability _durability;
    private readonly BackgroundSync? _backgroundSync;
    private readonly ILogger _logger;

    private LmdbStore(LmdbEnvironment env, LmdbErrors errors, Durability durability, DataStoreOptions options, ILogger logger)
    {
        _env = env;
        _errors = errors;
        _durability = durability;
        _logger = logger;
        // Durable stores too keep the timer when commits may skip their sync: it lets an idle process's pin go (ADR 0006).
        _backgroundSync = BackgroundSync.StartIfRelaxed(env.HasSyncedState ? Durability.Relaxed : durability, options.SyncInterval, SyncInBackground);
    }

    public override string Path => _errors.Directory;

    public override StoreBackend Backend => StoreBackend.Lmdb;

    public override StoreCapabilities Capabilities => LmdbCapabilities;

    public override Durability Durability => _durability;

    public bool ChangeFeedOn => _feed is not null;

    /// <summary>The environment's current map size in bytes (for tests and diagnostics).</summary>
    internal long MapSize => _env.MapSize;

    /// <summary>The shared environment (for tests).</summary>
    internal LmdbEnvironment Environment => _env;

    public static LmdbStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, long initialMapSize, bool checksums = true)
    {
        var errors = new LmdbErrors(directory, options.Timeout);
        var env = LmdbEnvironment.Acquire(directory, errors, initialMapSize, checksums, durability);
        return new LmdbStore(env, errors, durability, options, logger);
    }

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        _env.Write(_errors, WriteKind.Put, key, value, null, out var ticket);
        AfterCommit(ticket);
    }

    // The point reads keep LMDB's calls outside try blocks: on 64-bit the JIT compiles a P/Invoke inside a try
    // region (or a finally) through a slower stub, which cost a Get about 25 ns (ADR 0006). Nothing between
    // BeginRead and EndRead throws, except the caller's buffer writer, which is guarded.
    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        var txn = _env.BeginRead(_errors, out var seat);
        var rc = Find(txn, key, out var value);
        var length = 0;
        if (rc == LmdbNative.Success)
        {
            var stored = value.Span;
            Span<byte> place;
            try
            {
                place = destination.GetSpan(Math.Max(0, stored.Length - LmdbPairs.SuffixLength(_env.Checksums)));
            }
            catch
            {
                _env.EndRead(seat, txn);
                throw;
            }

            length = LmdbPairs.CopyChecked(key, stored, _env.Checksums, place);
            rc = length < 0 ? DamagedPair : rc;
        }

        _env.EndRead(seat, txn);
        if (!Found(rc, key))
        {
            return false;
        }

        destination.Advance(length);
        return true;
    }

    // The value is copied and checked in one pass (LmdbPairs.CopyChecked): a large value is read from the map once.
    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        var txn = _env.BeginRead(_errors, out var seat);
        var rc = Find(txn, key, out var value);
        var length = -1;
        if (rc == LmdbNative.Success)
        {
            length = LmdbPairs.CopyChecked(key, new ReadOnlySpan<byte>(value.Data, (int)value.Size), _env.Checksums, destination);
            rc = length < 0 ? DamagedPair : rc;
        }

        _env.EndRead(seat, txn);
        return Found(rc, key) ? length : -1;
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key)
    {
        var txn = _env.BeginRead(_errors, out var seat);
        var rc = Find(txn, key, out _);
        _env.EndRead(seat, txn);
        return Found(rc, key);
    }

    protected override void DeleteCore(ReadOnlySpan<byte> key)
    {
        _env.Write(_errors, WriteKind.Delete, key, default, null, out var ticket);
        AfterCommit(ticket);
    }

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        var removed = _env.Write(_errors, WriteKind.DeleteRange, start, end, null, out var ticket);
        AfterCommit(ticket);
        return removed;
    }

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        _env.ThrowIfDamaged();
        return new LmdbCursor(_env, _errors, start, end, keysOnly);
    }

    protected override int WriteCore(WriteBatch batch)
    {
        var failed = (int)_env.Write(_errors, WriteKind.Batch, default, default, batch, out var ticket);
        AfterCommit(ticket);
        return failed;
    }

    protected override void CompactCore() => _env.Compact(_errors);

    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        LmdbBackup.Copy(_env, _errors, destination, progress, cancellationToken);

    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) =>
        LmdbIntegrity.Check(_env, _errors, cancellationToken);

    protected override void Dispose(bool disposing)
    {
        _backgroundSync?.Dispose();
        _feed?.Dispose(); // a last prune, while the environment is open
        try
        {
            SyncInBackground();
        }
        finally
        {
            _env.Release();
        }
    }

    // Looks key up and returns LMDB's code (Success, NotFound or a failure) instead of throwing, so that the
    // caller can end the read first.
    private int Find(nint txn, ReadOnlySpan<byte> key, out LmdbNative.Val value)
    {
        if (LmdbKeys.IsLong(key))
        {
            return FindLongKey(txn, key, out value);
        }

        fixed (byte* k = key)
        {
            var keyVal = new LmdbNative.Val(k, key.Length);
            LmdbNative.Val data;
            var rc = LmdbNative.Get(txn, _env.Dbi, &keyVal, &data);
            value = data;
            return rc;
        }
    }

    private int FindLongKey(nint txn, ReadOnlySpan<byte> key, out LmdbNative.Val value)
    {
        try
        {
            Span<byte> slot = stackalloc byte[LmdbKeys.SlotLength];
            return LmdbLookup.TryFind(txn, _env.Dbi, key, slot, out value) ? LmdbNative.Success : LmdbNative.NotFound;
        }
        catch (LmdbException e)
        {
            value = default;
            return e.Code;
        }
    }

    // After the read has ended: true for Success, false for NotFound, and the translated failure otherwise.
    private bool Found(int rc, ReadOnlySpan<byte> key)
    {
        if (rc == DamagedPair)
        {
            Integrity.PairDamage.Throw(Path, StoreBackend.Lmdb, key, "its value does not match its checksum");
        }

        if (rc != LmdbNative.Success && rc != LmdbNative.NotFound)
        {
            _errors.Throw(rc, "reading a key");
        }

        return rc == LmdbNative.Success;
    }

    private void AfterCommit(long ticket)
    {
        if (ticket == 0)
        {
            return;
        }

        try
        {
            if (_durability == Durability.Durable)
            {
                WaitUntilSynced(ticket);
            }
        }
        finally
        {
            _feed?.Committed(); // the commit is there even when its sync failed
        }
    }

    private void WaitUntilSynced(long ticket)
    {
        try
        {
            _env.Sync.WaitUntilSynced(ticket);
        }
        catch (LmdbException e)
        {
            throw new DataStoreException(StoreFailure.Io, Path, StoreBackend.Lmdb,
                $"the write was committed but syncing it to disk failed ({LmdbNative.Describe(e.Code)}); it survives a crash of this process but may not survive a power loss.", e);
        }
    }

    private void SyncInBackground()
    {
        try
        {
            _env.Sync.SyncIfDirty();
            _env.ReleaseIdlePin();
            _env.CheckReaders(_errors);
        }
        catch (Exception e) when (e is LmdbException or DataStoreException)
        {
            Diagnostics.StoreLog.BackgroundSyncFailed(_logger, e, StoreBackend.Lmdb, Path);
        }
    }
}

using DataStore.Sync;

namespace DataStore.Lmdb;

/// <summary>
/// One open LMDB environment, shared by every store this process opens on the same directory (LMDB forbids opening
/// an environment twice in a process). It owns the writer lock, the memory map and its growth, the pool of read
/// transactions and the group sync. See ADR 0006.
/// </summary>
/// <remarks>
/// Write transactions run one at a time behind an in-process lock and a cross-process writer lock, both waited on
/// with the configured timeout, then LMDB's own writer mutex (which then never waits long); concurrent callers'
/// writes share one transaction (<see cref="Writes.CombinedWriter{TErrors}"/>). A write that fills the map grows
/// it and retries; a read that finds another process grew it adopts the new size. Resizing remaps, so it waits
/// (through <see cref="Gate"/>) until no thread is inside LMDB's map; open scans do not count, since they copy each
/// pair out and reposition after a remap.
/// </remarks>
internal sealed partial class LmdbEnvironment
{
    /// <summary>The LMDB data file's name in the store directory (its lock file adds <c>-lock</c>).</summary>
    public const string DataFile = "store.lmdb";

    private const string OpenLockFile = "lmdb-open.lock";
    private const string CompactSuffix = ".compact";
    private const uint MaxReaders = 510;
    private const int Megabyte = 1 << 20;

    private static readonly Dictionary<string, LmdbEnvironment> Registry = new(StringComparer.Ordinal);
    private static readonly object RegistryGate = new();

    private readonly object _writeLock = new();
    private readonly ILmdbWriterLock _writers;
    private readonly LmdbFileLock _openFile;
    private readonly LmdbHandlePool _readers = new();
    private readonly string _dataFile;
    private int _references = 1;
    private int _openCursors;
    private bool _closed;
    private nint _env;

    private LmdbEnvironment(string directory, ILmdbWriterLock writers, LmdbFileLock openFile)
    {
        Directory = directory;
        _dataFile = System.IO.Path.Combine(directory, DataFile);
        _writers = writers;
        _openFile = openFile;
        _syncedState = SyncedStateFor(directory);
        // One sync covers every commit made before it began.
        Sync = new GroupSync(SyncNow);
    }

    public string Directory { get; }

    public uint Dbi { get; private set; }

    /// <summary>True when values are stored with their pair's checksum (the manifest's setting, ADR 0014).</summary>
    public bool Checksums { get; private set; }

    /// <summary>The native environment handle (for tests that write raw pairs).</summary>
    internal nint RawHandle => _env;

    /// <summary>Keeps the map still while threads read through it.</summary>
    public LmdbMapGate Gate { get; } = new();

    /// <summary>Syncs the environment with group commit: durable writers share one <c>mdb_env_sync</c>.</summary>
    public GroupSync Sync { get; }

    /// <summary>The size of the memory map now, in bytes.</summary>
    public long MapSize
    {
        get
        {
            _ = LmdbNative.EnvInfoOf(_env, out var info);
            return (long)info.MapSize;
        }
    }

    /// <summary>Opens the environment of <paramref name="directory"/>, or shares the one this process has open.</summary>
    public static LmdbEnvironment Acquire(string directory, LmdbErrors errors, long initialMapSize, bool checksums, Durability durability)
    {
        lock (RegistryGate)
        {
            if (!Registry.TryGetValue(directory, out var environment))
            {
                environment = Open(directory, errors, initialMapSize);
                environment.Checksums = checksums;
                Registry.Add(directory, environment);
            }
            else
            {
                Interlocked.Increment(ref environment._references);
            }

            if (durability == Durability.Durable)
            {
                environment.AddDurableStore();
            }

            return environment;
        }
    }

    /// <summary>Drops one store's hold; the last one syncs and closes the environment and its files.</summary>
    public void Release()
    {
        lock (RegistryGate)
        {
            if (Interlocked.Decrement(ref _references) > 0)
            {
                return;
            }

            Registry.Remove(Directory);
            try
            {
                Sync.SyncIfDirty();
            }
            finally
            {
                CloseForGood();
                _writers.Dispose();
                _openFile.Dispose();
                _recordLock?.Dispose();
            }
        }
    }

    /// <summary>Adds a hold for an open scan, so the environment outlives the store that opened it.</summary>
    /// <remarks>
    /// Without the registry's lock: a scan comes from a store that holds the environment, so the count is above 0,
    /// and only <see cref="Release"/> takes it from 1 to 0, under the lock.
    /// </remarks>
    public void AddCursor()
    {
        var references = Volatile.Read(ref _references);
        while (true)
        {
            if (references <= 0)
            {
                throw new ObjectDisposedException(nameof(LmdbStore), $"The Lmdb store at '{Directory}' has been disposed.");
            }

            var seen = Interlocked.CompareExchange(ref _references, references + 1, references);
            if (seen == references)
            {
                break;
            }

            references = seen;
        }

        Interlocked.Increment(ref _openCursors);
    }

    /// <summary>Drops an open scan's hold; the last hold closes the environment (<see cref="Release"/>).</summary>
    public void RemoveCursor()
    {
        Interlocked.Decrement(ref _openCursors);
        var references = Volatile.Read(ref _references);
        while (references > 1)
        {
            var seen = Interlocked.CompareExchange(ref _references, references - 1, references);
            if (seen == references)
            {
                return;
            }

            references = seen;
        }

        Release();
    }

    /// <summary>
    /// Begins a read transaction inside <see cref="Gate"/>, renewing the one the calling thread kept (or a pooled one);
    /// end it with <see cref="EndRead"/>, passing <paramref name="seat"/>.
    /// </summary>
    public nint BeginRead(LmdbErrors errors, out LmdbReaderSeat seat)
    {
        while (true)
        {
            seat = Gate.Enter();
            if (_env == 0)
            {
                // Closed (it closes only while no thread is inside the gate): no pooled transaction is left to renew.
                Gate.Exit(seat);
                throw Closed(errors);
            }

            var txn = seat.Transaction;
            if (txn != 0)
            {
                seat.Transaction = 0;
            }
            else
            {
                txn = _readers.Take();
            }

            var rc = txn != 0 ? LmdbNative.TxnRenew(txn) : LmdbNative.TxnBegin(_env, 0, LmdbNative.ReadOnly, out txn);
            if (rc == LmdbNative.Success)
            {
                return txn;
            }

            if (txn != 0)
            {
                KeepReader(seat, txn);
            }

            Gate.Exit(seat);
            if (rc != LmdbNative.MapResized)
            {
                errors.Throw(rc, "beginning a read transaction");
            }

            AdoptMapSize(errors);
        }
    }

    /// <summary>Resets a read transaction from <see cref="BeginRead"/>, keeps it for the next read and leaves <see cref="Gate"/>.</summary>
    public void EndRead(LmdbReaderSeat seat, nint txn)
    {
        LmdbNative.TxnReset(txn);
        KeepReader(seat, txn);
        Gate.Exit(seat);
    }

    /// <summary>Clears reader slots that dead processes left behind.</summary>
    public void CheckReaders(LmdbErrors errors)
    {
        var seat = Gate.Enter();
        try
        {
            errors.Check(LmdbNative.ReaderCheck(Handle(errors), out _), "clearing stale reader slots");
        }
        finally
        {
            Gate.Exit(seat);
        }
    }

    /// <summary>Throws once the environment is closed for good; called holding the in-process writer lock, under which it closes.</summary>
    private void ThrowIfClosed(LmdbErrors errors)
    {
        if (_closed)
        {
            throw Closed(errors);
        }
    }

    private nint Handle(LmdbErrors errors) => _env != 0 ? _env : throw Closed(errors);

    private Exception Closed(LmdbErrors errors) => _closed
        ? new ObjectDisposedException(nameof(LmdbStore), $"The Lmdb store at '{errors.Directory}' has been disposed.")
        : new DataStoreException(StoreFailure.Engine, errors.Directory, StoreBackend.Lmdb,
            "the environment could not be reopened after Compact; dispose the store and open it again.");

    // Inside the gate: the seat keeps one reset transaction for its thread; a second (a scan's, ended while the
    // thread kept another) goes to the shared pool.
    private void KeepReader(LmdbReaderSeat seat, nint txn)
    {
        if (seat.Transaction == 0)
        {
            seat.Transaction = txn;
            return;
        }

        if (!_readers.TryKeep(txn))
        {
            LmdbNative.TxnAbort(txn);
        }
    }
}

using System.Runtime.InteropServices;
using Microsoft.Extensions.Logging;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// A store on RocksDB (bytewise comparator, so memcmp order). Point reads and plain writes run concurrently; a
/// batch with preconditions or a range delete takes the write gate exclusively, so its checks and its write are one
/// atomic step. Durable writes use <c>sync = true</c>, which RocksDB's write groups share among concurrent writers;
/// Relaxed stores sync the WAL in the background every <see cref="DataStoreOptions.SyncInterval"/>.
/// </summary>
internal sealed unsafe partial class RocksDbStore : KeyValueStoreBase
{
    private const StoreCapabilities RocksDbCapabilities = StoreCapabilities.Persistent | StoreCapabilities.SnapshotScans |
        StoreCapabilities.SelfDescribing | StoreCapabilities.Compaction | StoreCapabilities.ChangeFeed;

    private static readonly byte* EmptyBytes = (byte*)NativeMemory.Alloc(1);

    private readonly string _directory;
    private readonly Durability _durability;
    private readonly RocksDbOptions _options;
    private readonly IntPtr _readOptions;
    private readonly IntPtr _writeOptions;
    private readonly RocksDbWriteGate _gate;
    private readonly HashSet<RocksDbCursor> _cursors = [];
    private readonly RocksDbWalSync? _walSync;
    private readonly ILogger _logger;
    private readonly TimeSpan _timeout;

    private RocksDbStore(string directory, Durability durability, DataStoreOptions options, ILogger logger, RocksDbOptions nativeOptions, IntPtr db, bool readOnly)
    {
        _directory = directory;
        _durability = durability;
        _options = nativeOptions;
        _timeout = options.Timeout;
        _db = db;
        _readOptions = Rocks.rocksdb_readoptions_create();
        _writeOptions = Rocks.rocksdb_writeoptions_create();
        Rocks.rocksdb_writeoptions_set_sync(_writeOptions, durability == Durability.Durable ? (byte)1 : (byte)0);
        _gate = new RocksDbWriteGate(directory, options.Timeout);
        _logger = logger;
        if (readOnly)
        {
            _readOnlyDb = db;
        }
        else
        {
            RecordAtOpen();
        }

        if (durability == Durability.Relaxed)
        {
            _walSync = new RocksDbWalSync(this, options.SyncInterval, logger);
        }
    }

    public override string Path => _directory;

    public override StoreBackend Backend => StoreBackend.RocksDb;

    public override StoreCapabilities Capabilities => RocksDbCapabilities;

    public override Durability Durability => _durability;

    /// <summary>The <c>rocksdb_t</c> handle reads use: the read-only instance until the first write, then the writable one; valid while the store is open.</summary>
    internal IntPtr Db => Volatile.Read(ref _db);

    public static RocksDbStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger)
    {
        RocksDbWalHole.CutSilentHole(directory); // before any open replays the WAL past a hole it does not report
        var nativeOptions = RocksDbOptions.Create(RocksDbTuning.Current);
        try
        {
            var families = ExistingFamilies(directory, nativeOptions);
            var readOnly = families.Length == 0 ? RocksDbReadOnlyStart.TryOpen(directory, nativeOptions) : IntPtr.Zero;
            if (readOnly != IntPtr.Zero)
            {
                return new RocksDbStore(directory, durability, options, logger, nativeOptions, readOnly, readOnly: true);
            }

            var db = RocksDbOpener.Open(directory, nativeOptions, options.Timeout, families, out var handles);
            var store = new RocksDbStore(directory, durability, options, logger, nativeOptions, db, readOnly: false);
            store.Adopt(["default", .. families], handles);
            return store;
        }
        catch
        {
            nativeOptions.Dispose();
            throw;
        }
    }

    /// <summary>A non-null pointer for a possibly empty span (RocksDB slices should not point at null).</summary>
    internal static byte* NonNull(byte* pointer) => pointer != null ? pointer : EmptyBytes;

    protected override void PutCore(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        if (_log is not null)
        {
            WriteLogged(put: true, key, value);
            return;
        }

        EnterWrite(exclusive: false);
        try
        {
            var error = IntPtr.Zero;
            fixed (byte* k = key)
            fixed (byte* v = value)
            {
                Rocks.rocksdb_put(Db, _writeOptions, k, (UIntPtr)key.Length, NonNull(v), (UIntPtr)value.Length, out error);
            }

            RocksDbErrors.ThrowIf(error, _directory, "Put");
        }
        finally
        {
            ExitWrite(exclusive: false);
        }
    }

    protected override void DeleteCore(ReadOnlySpan<byte> key)
    {
        if (_log is not null)
        {
            WriteLogged(put: false, key, default);
            return;
        }

        EnterWrite(exclusive: false);
        try
        {
            var error = IntPtr.Zero;
            fixed (byte* k = key)
            {
                Rocks.rocksdb_delete(Db, _writeOptions, k, (UIntPtr)key.Length, out error);
            }

            RocksDbErrors.ThrowIf(error, _directory, "Delete");
        }
        finally
        {
            ExitWrite(exclusive: false);
        }
    }

    protected override long DeleteRangeCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        // Exclusive: no write lands between counting the keys and deleting them.
        long removed;
        EnterWrite(exclusive: true);
        try
        {
            using var batch = new RocksDbBatch(this);
            removed = batch.DeleteRangeCounting(start, end);
            if (removed > 0 || _log is not null) // with the feed on, every DeleteRange is a commit with its event
            {
                _log?.Append(batch.Handle, _record.Clear().Add(KeyChangeKind.DeleteRange, start, end).Bytes);
                Commit(batch, "DeleteRange");
            }
        }
        finally
        {
            ExitWrite(exclusive: true);
        }

        _feed?.Committed();
        return removed;
    }

    protected override int WriteCore(WriteBatch batch)
    {
        // Preconditions and open-ended range deletes read the store, so those batches hold the gate exclusively, as every
        // write does with the feed on (sequence order is commit order).
        var exclusive = _log is not null || RocksDbBatch.ReadsTheStore(batch);
        int failed;
        EnterWrite(exclusive);
        try
        {
            using var native = new RocksDbBatch(this);
            failed = native.CheckPreconditions(batch);
            if (failed < 0)
            {
                native.Add(batch);
                _log?.Append(native.Handle, _record.Clear().Add(batch).Bytes);
                Commit(native, "Writing a batch");
            }
        }
        finally
        {
            ExitWrite(exclusive);
        }

        if (failed < 0)
        {
            _feed?.Committed();
        }

        return failed;
    }

    protected override void CompactCore()
    {
        EnsureWritable();
        var options = Rocks.rocksdb_compactoptions_create();
        try
        {
            // kForceOptimized: rewrite the bottommost level too, so deleted data and tombstones go away.
            Rocks.rocksdb_compactoptions_set_bottommost_level_compaction(options, 3);
            Rocks.rocksdb_compact_range_opt(Db, options, (byte*)null, UIntPtr.Zero, (byte*)null, UIntPtr.Zero);
        }
        finally
        {
            Rocks.rocksdb_compactoptions_destroy(options);
        }
    }

    private void Commit(RocksDbBatch batch, string operation)
    {
        var error = IntPtr.Zero;
        Rocks.rocksdb_write(Db, _writeOptions, batch.Handle, out error);
        RocksDbErrors.ThrowIf(error, _directory, operation);
        _log?.Committed();
    }

    private void EnterWrite(bool exclusive)
    {
        EnsureWritable();
        _gate.Enter(exclusive);
    }

    private void ExitWrite(bool exclusive) => _gate.Exit(exclusive);
}

using DataStore.Sync;
using Microsoft.Extensions.Logging;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// The background sync of a Relaxed store: every <see cref="DataStoreOptions.SyncInterval"/>, when anything was
/// written since the last sync, RocksDB's <c>FlushWAL(sync = true)</c> makes the WAL durable, so a power loss
/// costs at most about one interval of writes, and <see cref="RocksDbSyncMark"/> records how far it reached.
/// Writes themselves never wait for it.
/// </summary>
internal sealed class RocksDbWalSync : IDisposable
{
    private readonly RocksDbStore _store;
    private readonly ILogger _logger;
    private readonly BackgroundSync _timer;
    private int _syncing;
    private ulong _syncedSequence;

    public RocksDbWalSync(RocksDbStore store, TimeSpan interval, ILogger logger)
    {
        _store = store;
        _logger = logger;
        _syncedSequence = Rocks.rocksdb_get_latest_sequence_number(store.Db);
        _timer = new BackgroundSync(interval, SyncInBackground);
    }

    /// <summary>Syncs the WAL when anything was written since the last sync; the store calls it once more as it closes.</summary>
    public void SyncIfDirty()
    {
        var sequence = Rocks.rocksdb_get_latest_sequence_number(_store.Db);
        if (sequence == _syncedSequence)
        {
            return;
        }

        var error = IntPtr.Zero;
        Rocks.rocksdb_flush_wal(_store.Db, 1, out error);
        if (error != IntPtr.Zero)
        {
            RocksDbLog.WalSyncFailed(_logger, _store.Path, RocksDbErrors.TakeMessage(error));
            return;
        }

        _syncedSequence = sequence;
        RocksDbSyncMark.TryWrite(_store.Path, sequence, durable: false, _logger);
    }

    /// <summary>Stops the timer and waits for a sync in progress.</summary>
    public void Dispose() => _timer.Dispose();

    private void SyncInBackground()
    {
        if (Interlocked.Exchange(ref _syncing, 1) != 0)
        {
            return;
        }

        try
        {
            if (_store.TryAcquire())
            {
                try
                {
                    SyncIfDirty();
                }
                finally
                {
                    _store.Release();
                }
            }
        }
        finally
        {
            Volatile.Write(ref _syncing, 0);
        }
    }
}

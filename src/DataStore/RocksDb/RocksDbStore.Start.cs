using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

// Start-up (ADR 0005): a store with nothing awaiting recovery opens read-only (RocksDbReadOnlyStart) and becomes
// writable at its first write; the read-only instance stays open until the store closes, for cursors begun on it.
internal sealed partial class RocksDbStore
{
    private readonly Lock _upgrade = new();
    private IntPtr _db;
    private readonly IntPtr _readOnlyDb;
    private ulong _recordedSequence;

    /// <summary>True once the store holds a writable RocksDB instance (at once, or after its first write).</summary>
    internal bool Writable => Db != _readOnlyDb;

    /// <summary>Opens the writable instance if the store started read-only; every write, compaction and backup calls it first.</summary>
    internal void EnsureWritable()
    {
        if (Writable)
        {
            return;
        }

        lock (_upgrade)
        {
            if (Writable)
            {
                return;
            }

            var db = RocksDbOpener.Open(_directory, _options, _timeout);
            _recordedSequence = RocksDbSyncMark.RecordAtOpen(_directory, db, _durability == Durability.Durable, _logger);
            Volatile.Write(ref _db, db); // reads started after this see the writes made through it
        }
    }

    private void RecordAtOpen() =>
        _recordedSequence = RocksDbSyncMark.RecordAtOpen(_directory, _db, _durability == Durability.Durable, _logger);

    // A Durable store syncs every write, so at a clean close its record can cover them all: the next open is read-only.
    // (A Relaxed store's last background sync, run as it closes, already did.)
    private void MarkDurableWrites()
    {
        var sequence = Rocks.rocksdb_get_latest_sequence_number(Db);
        if (_durability == Durability.Durable && sequence != _recordedSequence)
        {
            RocksDbSyncMark.TryWrite(_directory, sequence, durable: true, _logger);
        }
    }
}

using DataStore.Platform;
using DataStore.RocksDb.Interop;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// Opens a store whose WAL has a hole that a power loss can leave in a Relaxed store's unsynced tail: the disk kept a
/// later block of that tail without an earlier one. The strict recovery mode (<c>kTolerateCorruptedTailRecords</c>)
/// refuses any bad record followed by good ones; this retries in point-in-time mode, which stops at the hole, but only
/// when everything the store last recorded as synced (<see cref="RocksDbSyncMark"/>) lies before it.
/// </summary>
/// <remarks>
/// The retry is allowed when the record exists, was written by a Relaxed store, and in another boot (or one that
/// cannot be known): with no restart since, the page cache held the whole WAL, so a hole is damage, not a power loss.
/// A read-only open in point-in-time mode measures how far the WAL replays before anything is written; if it falls
/// short of the synced sequence, synced writes are missing and the strict error stands. After the retry the store is
/// flushed, so the WAL with the hole is no longer needed and RocksDB deletes it.
/// </remarks>
internal static class RocksDbWalHole
{

    /// <summary>The open store, or <see cref="IntPtr.Zero"/> when the hole cannot be told apart from damage.</summary>
    public static IntPtr TryOpen(string directory, IntPtr options, IntPtr name)
    {
        if (RocksDbSyncMark.Read(directory) is not { Durable: false } mark || (mark.Boot != 0 && mark.Boot == BootIdentity.Current))
        {
            return IntPtr.Zero;
        }

        Rocks.rocksdb_options_set_wal_recovery_mode(options, RocksDbWalRecovery.PointInTime);
        try
        {
            return ReplaysPast(mark.Sequence, options, name) ? OpenAndFlush(directory, options, name) : IntPtr.Zero;
        }
        finally
        {
            Rocks.rocksdb_options_set_wal_recovery_mode(options, RocksDbWalRecovery.TolerateCorruptedTailRecords);
        }
    }

    private static bool ReplaysPast(ulong synced, IntPtr options, IntPtr name)
    {
        var error = IntPtr.Zero;
        var db = Rocks.rocksdb_open_for_read_only(options, name, 0, out error);
        if (error != IntPtr.Zero)
        {
            RocksDbErrors.TakeMessage(error);
            return false;
        }

        var replayed = Rocks.rocksdb_get_latest_sequence_number(db);
        Rocks.rocksdb_close(db);
        return replayed >= synced;
    }

    private static IntPtr OpenAndFlush(string directory, IntPtr options, IntPtr name)
    {
        var error = IntPtr.Zero;
        var db = Rocks.rocksdb_open(options, name, out error);
        if (error != IntPtr.Zero)
        {
            RocksDbErrors.TakeMessage(error);
            return IntPtr.Zero;
        }

        if (RocksDbFlush.AndWait(db) is { } text)
        {
            // Left unflushed, the hole would be met again by the next open, after this open recorded a new sync.
            Rocks.rocksdb_close(db);
            throw RocksDbErrors.Exception(directory, "Flushing the store recovered up to a hole in its WAL's unsynced tail", text);
        }

        return db;
    }
}

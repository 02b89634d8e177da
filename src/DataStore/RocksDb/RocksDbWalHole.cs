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
/// flushed, every column family (the change log's too), so the WAL with the hole is no longer needed and RocksDB deletes it.
/// The open names the store's column families as the strict one did (RocksDB refuses an open that leaves one out; the
/// read-only measurement may leave them out, and its WAL replay still counts their records' sequence numbers).
/// </remarks>
internal static class RocksDbWalHole
{

    /// <summary>The open store, or <see cref="IntPtr.Zero"/> when the hole cannot be told apart from damage.</summary>
    public static IntPtr TryOpen(string directory, RocksDbOptions options, IntPtr name, string[] families, out IntPtr[] handles)
    {
        handles = [];
        if (RocksDbSyncMark.Read(directory) is not { Durable: false } mark || (mark.Boot != 0 && mark.Boot == BootIdentity.Current))
        {
            return IntPtr.Zero;
        }

        Rocks.rocksdb_options_set_wal_recovery_mode(options.Handle, RocksDbWalRecovery.PointInTime);
        try
        {
            return ReplaysPast(mark.Sequence, options.Handle, name) ? OpenAndFlush(directory, options, name, families, out handles) : IntPtr.Zero;
        }
        finally
        {
            Rocks.rocksdb_options_set_wal_recovery_mode(options.Handle, RocksDbWalRecovery.TolerateCorruptedTailRecords);
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

    private static IntPtr OpenAndFlush(string directory, RocksDbOptions options, IntPtr name, string[] families, out IntPtr[] handles)
    {
        var db = RocksDbOpener.OpenOnce(options, name, families, out handles, out var error);
        if (error != IntPtr.Zero)
        {
            RocksDbErrors.TakeMessage(error);
            handles = [];
            return IntPtr.Zero;
        }

        // Left unflushed, the hole would be met again by the next open, after this open recorded a new sync.
        var text = RocksDbFlush.AndWait(db);
        for (var i = 1; i < handles.Length && text is null; i++)
        {
            text = RocksDbFlush.AndWait(db, handles[i]);
        }

        if (text is not null)
        {
            Array.ForEach(handles, Rocks.rocksdb_column_family_handle_destroy);
            Rocks.rocksdb_close(db);
            throw RocksDbErrors.Exception(directory, "Flushing the store recovered up to a hole in its WAL's unsynced tail", text);
        }

        return db;
    }
}

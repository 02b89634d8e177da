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
    /// <summary>
    /// Before the store is opened: cuts its WAL at a hole RocksDB's reader passes over without a word
    /// (<see cref="RocksDbWalWalk"/>: every recovery mode would replay the writes after it without the ones it lost), when
    /// the hole lies past the last recorded sync of a store last open Relaxed in another boot. What is cut is newer than
    /// that sync, which Relaxed may lose; a hole anywhere else is left to RocksDB's own checks.
    /// </summary>
    /// <remarks>
    /// The WAL files after the hole's are emptied first and the hole's own file is truncated at the hole last, each synced:
    /// a power loss in between leaves the hole to be found and cut again at the next open.
    /// </remarks>
    public static void CutSilentHole(string directory)
    {
        if (RelaxedMarkFromAnotherBoot(directory) is not { } mark)
        {
            return;
        }

        var wals = Directory.GetFiles(directory, "*.log")
            .Select(path => (Path: path, Number: ulong.TryParse(Path.GetFileNameWithoutExtension(path), out var number) ? number : 0))
            .Where(wal => wal.Number != 0).OrderBy(wal => wal.Number).Select(wal => wal.Path).ToList();
        var walk = new RocksDbWalWalk();
        for (var i = 0; i < wals.Count && Walk(directory, walk, i, wals[i]); i++)
        {
        }

        // Everything the sync covered must lie before the hole: a hole before any record may not reach back to it either.
        if (walk.Cut is not { } cut || (cut.Expected != 0 ? cut.Expected <= mark.Sequence : cut.Found <= mark.Sequence + 1))
        {
            return;
        }

        for (var i = wals.Count - 1; i > cut.File; i--)
        {
            Truncate(directory, wals[i], 0);
        }

        Truncate(directory, wals[cut.File], cut.Offset);
    }

    /// <summary>The open store, or <see cref="IntPtr.Zero"/> when the hole cannot be told apart from damage.</summary>
    public static IntPtr TryOpen(string directory, RocksDbOptions options, IntPtr name, string[] families, out IntPtr[] handles)
    {
        handles = [];
        if (RelaxedMarkFromAnotherBoot(directory) is not { } mark)
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

    // The store's record of its last WAL sync, when it was last open Relaxed and the machine restarted since (or its boot is unknown).
    private static RocksDbSyncMark? RelaxedMarkFromAnotherBoot(string directory) =>
        RocksDbSyncMark.Read(directory) is { Durable: false } mark && (mark.Boot == 0 || mark.Boot != BootIdentity.Current) ? mark : null;

    private static bool Walk(string directory, RocksDbWalWalk walk, int index, string wal)
    {
        try
        {
            using var stream = new FileStream(wal, FileMode.Open, FileAccess.Read, FileShare.ReadWrite, bufferSize: 1);
            return walk.WalkFile(index, stream);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DataStoreException(StoreFailure.Io, directory, StoreBackend.RocksDb, $"Reading the WAL {Path.GetFileName(wal)} for a hole a power loss left failed: {e.Message}", e);
        }
    }

    private static void Truncate(string directory, string wal, long length)
    {
        try
        {
            using var stream = new FileStream(wal, FileMode.Open, FileAccess.Write, FileShare.ReadWrite);
            stream.SetLength(length);
            stream.Flush(flushToDisk: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DataStoreException(StoreFailure.Io, directory, StoreBackend.RocksDb, $"Cutting the WAL {Path.GetFileName(wal)} at a hole a power loss left failed: {e.Message}", e);
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

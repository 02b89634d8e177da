namespace DataStore.Lmdb;

internal sealed partial class LmdbEnvironment
{
    // Set while the map is larger than the disk space reserved for it (a reservation failed after a resize): the
    // next write reserves again, or fails with disk full, before it touches the map.
    private bool _unreserved;

    /// <summary>
    /// True when LMDB writes through a writable shared map (<c>MDB_WRITEMAP</c>) instead of <c>pwrite</c>: Relaxed
    /// stores on Linux whose whole map could be reserved on disk (ADR 0006).
    /// </summary>
    public bool WritesThroughMap { get; private set; }

    /// <summary>Grows a full map: doubles it (by at most 4 GiB a step), and by at least twice the write's size.</summary>
    private void Grow(long sizeHint, LmdbErrors errors)
    {
        var current = MapSize;
        var step = Math.Max(Math.Min(current, 4L << 30), 2 * sizeHint + Megabyte);
        var size = (current + step + Megabyte - 1) / Megabyte * Megabyte;
        ResizeLocked(size, errors);
    }

    /// <summary>Adopts the map size another process grew the store to (a read found <c>MDB_MAP_RESIZED</c>).</summary>
    private void AdoptMapSize(LmdbErrors errors)
    {
        if (!Monitor.TryEnter(_writeLock, errors.Timeout))
        {
            throw errors.TimedOut();
        }

        try
        {
            ResizeLocked(0, errors);
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }
    }

    // Holding the writer lock (so no write transaction is open): waits until no thread is inside the map, then
    // remaps at the new size (0 = the size recorded in the file by whichever process grew it last). Through a
    // writable map, the disk space is reserved first, so a full disk fails the growth instead of a later store
    // into the map (which would be a SIGBUS).
    private void ResizeLocked(long size, LmdbErrors errors)
    {
        if (size > 0)
        {
            Reserve(size, errors);
        }

        int rc;
        Gate.BeginExclusive();
        try
        {
            rc = LmdbNative.EnvSetMapSize(Handle(errors), (nuint)size);
        }
        finally
        {
            Gate.EndExclusive();
        }

        errors.Check(rc, size == 0 ? "adopting the map size another process set" : $"growing the memory map to {size / Megabyte} MiB");
        if (size == 0)
        {
            _unreserved = WritesThroughMap;
            ReserveIfGrown(errors);
        }
    }

    // Before a write transaction: the whole map must be backed by reserved disk space when LMDB writes through it.
    private void ReserveIfGrown(LmdbErrors errors)
    {
        if (_unreserved)
        {
            Reserve(MapSize, errors);
            _unreserved = false;
        }
    }

    private void Reserve(long size, LmdbErrors errors)
    {
        if (!WritesThroughMap)
        {
            return;
        }

        var rc = LmdbDiskReservation.Reserve(_env, size);
        if (rc != 0)
        {
            _unreserved = true;
            errors.Throw(rc, $"reserving {size / Megabyte} MiB of disk for the memory map");
        }
    }

    // After an open with MDB_WRITEMAP (which sizes the file to the map, sparsely): reserves the whole map on disk;
    // false when the disk cannot hold it, and the environment is then opened again without MDB_WRITEMAP.
    private static bool TryReserveAtOpen(nint env)
    {
        _ = LmdbNative.EnvInfoOf(env, out var info);
        return LmdbDiskReservation.Reserve(env, (long)info.MapSize) == 0;
    }

    // Compact through a writable map: the file is as long as the map, so the map shrinks to twice the data (at least
    // a new store's size) for the file to give space back; pwrite mode keeps the old size (the file is the data).
    private long MapSizeAfterCompact(long current, long copyLength)
    {
        if (!WritesThroughMap)
        {
            return current;
        }

        var wanted = Math.Max(LmdbBackend.InitialMapSize, (2 * copyLength + Megabyte - 1) / Megabyte * Megabyte);
        return Math.Min(current, wanted);
    }
}

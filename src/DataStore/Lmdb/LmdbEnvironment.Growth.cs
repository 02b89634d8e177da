namespace DataStore.Lmdb;

internal sealed partial class LmdbEnvironment
{
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
    // remaps at the new size (0 = the size recorded in the file by whichever process grew it last).
    private void ResizeLocked(long size, LmdbErrors errors)
    {
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

        errors.Check(rc, size == 0 ? "adopting the map size another process set" : $"growing the memory map to {size / Megabyte} MiB");    }
}

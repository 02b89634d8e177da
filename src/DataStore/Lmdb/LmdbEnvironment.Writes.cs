using System.Diagnostics;
using DataStore.Sync;

namespace DataStore.Lmdb;

/// <summary>What one write transaction does (<see cref="LmdbEnvironment.Write"/>).</summary>
internal enum LmdbWriteKind
{
    Put,
    Delete,
    DeleteRange,
    Batch,
}

internal sealed partial class LmdbEnvironment
{
    /// <summary>
    /// Runs one write transaction behind the writer locks, growing the map and retrying when it fills, and commits it
    /// without syncing. Returns the operation's result (keys removed, or a failed precondition's index, or -1) and the
    /// commit's ticket for <see cref="GroupSync.WaitUntilSynced"/> (0 when nothing was committed).
    /// </summary>
    public long Write(LmdbErrors errors, bool durable, LmdbWriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket)
    {
        var clock = Stopwatch.StartNew();
        if (!Monitor.TryEnter(_writeLock, errors.Timeout))
        {
            throw errors.TimedOut();
        }

        try
        {
            ThrowIfClosed(errors);
            var left = errors.Timeout - clock.Elapsed;
            if (!TakeWriters(errors, left < TimeSpan.Zero ? TimeSpan.Zero : left))
            {
                throw errors.TimedOut();
            }

            try
            {
                SyncMode(durable, errors);
                return WriteLocked(errors, kind, first, second, batch, out ticket);
            }
            finally
            {
                _writers.Release();
            }
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }
    }

    /// <summary>Takes the cross-process writer lock (the in-process one is held), waiting at most <paramref name="timeout"/>.</summary>
    private bool TakeWriters(LmdbErrors errors, TimeSpan timeout)
    {
        try
        {
            return _writers.TryTake(timeout);
        }
        catch (LmdbException e)
        {
            throw errors.Translate(e.Code, "taking the writer lock");
        }
    }

    private long WriteLocked(LmdbErrors errors, LmdbWriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket)
    {
        var env = Handle(errors);
        while (true)
        {
            var rc = LmdbNative.TxnBegin(env, 0, 0, out var txn);
            if (rc == LmdbNative.MapResized)
            {
                ResizeLocked(0, errors);
                continue;
            }

            errors.Check(rc, "beginning a write transaction");
            long result;
            try
            {
                var writer = new LmdbWriter(txn, Dbi, Checksums, Directory);
                result = kind switch
                {
                    LmdbWriteKind.Put => Put(writer, first, second),
                    LmdbWriteKind.Delete => Delete(writer, first),
                    LmdbWriteKind.DeleteRange => writer.DeleteRange(first, second),
                    _ => writer.Write(batch!),
                };
                if (kind == LmdbWriteKind.Batch && result >= 0)
                {
                    LmdbNative.TxnAbort(txn);
                    ticket = 0;
                    return result;
                }
            }
            catch (LmdbException e)
            {
                LmdbNative.TxnAbort(txn);
                if (e.Code != LmdbNative.MapFull)
                {
                    throw errors.Translate(e.Code, "writing");
                }

                Grow(SizeHint(kind, first, second, batch), errors);
                continue;
            }
            catch
            {
                LmdbNative.TxnAbort(txn);
                throw;
            }

            rc = LmdbNative.TxnCommit(txn);
            if (rc == LmdbNative.MapFull)
            {
                Grow(SizeHint(kind, first, second, batch), errors);
                continue;
            }

            errors.Check(rc, "committing");
            ticket = Sync.Committed();
            return result;
        }
    }

    // Durable commits sync their pages inside the commit (MDB_NOMETASYNC: pages, then the meta page unsynced, which
    // the group sync makes durable); Relaxed commits sync nothing (MDB_NOSYNC). Switched under the writer lock.
    private void SyncMode(bool durable, LmdbErrors errors)
    {
        if (_durableMode == durable)
        {
            return;
        }

        var env = Handle(errors);
        errors.Check(LmdbNative.EnvSetFlags(env, LmdbNative.NoSync, durable ? 0 : 1), "switching commit syncing");
        errors.Check(LmdbNative.EnvSetFlags(env, LmdbNative.NoMetaSync, durable ? 1 : 0), "switching commit syncing");
        _durableMode = durable;
    }

    private static long Put(LmdbWriter writer, ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        writer.Put(key, value);
        return -1;
    }

    private static long Delete(LmdbWriter writer, ReadOnlySpan<byte> key)
    {
        writer.Delete(key);
        return -1;
    }

    private static long SizeHint(LmdbWriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch) =>
        kind == LmdbWriteKind.Batch ? BatchBytes(batch!) : first.Length + (long)second.Length;

    private static long BatchBytes(WriteBatch batch)
    {
        long bytes = 0;
        for (var i = 0; i < batch.OperationCount; i++)
        {
            var operation = batch.Operation(i);
            bytes += operation.FirstLength + operation.SecondLength;
        }

        return bytes;
    }

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

        errors.Check(rc, size == 0 ? "adopting the map size another process set" : $"growing the memory map to {size / Megabyte} MiB");
    }
}

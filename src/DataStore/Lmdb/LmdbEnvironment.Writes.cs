using System.Diagnostics;
using DataStore.Sync;
using DataStore.Writes;

namespace DataStore.Lmdb;

/// <summary>What one write transaction does (<see cref="LmdbEnvironment.Write"/>).</summary>
internal enum LmdbWriteKind
{
    Put,
    Delete,
    DeleteRange,
    Batch,

    /// <summary>Prunes the change log to the retention in the request's second span (a 32-bit count); logs nothing.</summary>
    PruneFeed,
}

internal sealed partial class LmdbEnvironment
{
    private readonly WriteQueue<LmdbWriteRequest> _queue = new();
    private readonly List<LmdbWriteRequest> _group = new(WriteQueue<LmdbWriteRequest>.MaxGroup);
    private readonly ChangeFeed.ChangeRecord _record = new();
    private long _combinedCommits;

    /// <summary>How many commits carried more than one caller's write (for tests and diagnostics).</summary>
    internal long CombinedCommits => Volatile.Read(ref _combinedCommits);

    /// <summary>How many callers wait for the writer now (for tests).</summary>
    internal int PendingWrites => _queue.Pending;

    /// <summary>
    /// Runs the write in an LMDB write transaction behind the writer locks, growing the map and retrying when it fills,
    /// and commits it, its pages synced and its meta page not (MDB_NOMETASYNC); concurrent callers' writes share one transaction (<see cref="WriteQueue{TWrite}"/>).
    /// Returns the operation's result (keys removed, or a failed precondition's index, or -1) and the commit's ticket
    /// for <see cref="GroupSync.WaitUntilSynced"/> (0 when nothing was committed).
    /// </summary>
    public unsafe long Write(LmdbErrors errors, LmdbWriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket)
    {
        var started = Stopwatch.GetTimestamp();
        fixed (byte* f = first, s = second)
        {
            var request = LmdbWriteRequest.ForThisThread(errors, kind, f, first.Length, s, second.Length, batch);
            try
            {
                if (_queue.Join(request, started))
                {
                    Lead(request, started);
                }

                request.Failure?.Throw();
                ticket = request.Ticket;
                return request.Result;
            }
            finally
            {
                request.Clear();
            }
        }
    }

    // The leader takes both writer locks, then every waiting caller's write, and runs them in one transaction; each
    // caller gets its own outcome.
    private void Lead(LmdbWriteRequest leader, long started)
    {
        var errors = leader.Errors;
        var grouped = false;
        Exception? failure = null;
        try
        {
            if (!Monitor.TryEnter(_writeLock, Left(errors, started)))
            {
                throw errors.TimedOut();
            }

            try
            {
                ThrowIfClosed(errors);
                if (!TakeWriters(errors, Left(errors, started)))
                {
                    throw errors.TimedOut();
                }

                try
                {
                    _group.Clear();
                    _queue.TakeGroup(leader, _group);
                    grouped = true;
                    WriteGroupLocked(_group);
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
        catch (Exception e)
        {
            failure = e;
        }
        finally
        {
            _queue.Finish(leader, grouped ? _group : null, failure);
        }
    }

    // What is left of the caller's timeout (a timestamp, not a Stopwatch, so that a write allocates nothing).
    private static TimeSpan Left(LmdbErrors errors, long started)
    {
        var left = errors.Timeout - Stopwatch.GetElapsedTime(started);
        return left < TimeSpan.Zero ? TimeSpan.Zero : left;
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

    // One transaction for the whole group; if it fails for any reason but a full map (which it grows and retries),
    // each caller's write runs again alone, so one caller's failure is its own.
    private void WriteGroupLocked(List<LmdbWriteRequest> group)
    {
        if (group.Count > 1)
        {
            try
            {
                WriteLocked(group, 0, group.Count);
                _combinedCommits++;
                return;
            }
            catch (Exception e) when (e is DataStoreException or LmdbException)
            {
                // Nothing was committed; below, each write runs alone.
            }
        }

        for (var i = 0; i < group.Count; i++)
        {
            try
            {
                WriteLocked(group, i, 1);
            }
            catch (Exception e)
            {
                group[i].Failure = System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e);
            }
        }
    }

    private void WriteLocked(List<LmdbWriteRequest> group, int start, int count)
    {
        var errors = group[start].Errors;
        while (true)
        {
            var txn = BeginWriteLocked(errors);
            var wrote = false;
            try
            {
                var writer = new LmdbWriter(txn, Dbi, Checksums, Directory);
                for (var i = start; i < start + count; i++)
                {
                    var request = group[i];
                    request.Result = Apply(writer, request, txn);
                    wrote |= Wrote(request);
                    if (FeedLogging && request.Kind != LmdbWriteKind.PruneFeed && Wrote(request))
                    {
                        // Each caller's commit gets its own record and sequence, in this transaction (ADR 0020).
                        ChangeFeed.Lmdb.LmdbChangeLog.Append(txn, FeedDbi, ChangeFeed.Lmdb.LmdbChangeLog.Describe(_record, request));
                    }
                }
            }
            catch (LmdbException e)
            {
                LmdbNative.TxnAbort(txn);
                if (e.Code != LmdbNative.MapFull)
                {
                    throw errors.Translate(e.Code, "writing");
                }

                Grow(SizeHint(group, start, count), errors);
                continue;
            }
            catch
            {
                LmdbNative.TxnAbort(txn);
                throw;
            }

            if (!wrote)
            {
                LmdbNative.TxnAbort(txn);
                return;
            }

            var rc = LmdbNative.TxnCommit(txn);
            if (rc == LmdbNative.MapFull)
            {
                Grow(SizeHint(group, start, count), errors);
                continue;
            }

            errors.Check(rc, "committing");
            CheckpointIfGrownLocked(errors, SizeHint(group, start, count));
            var ticket = Sync.Committed();
            for (var i = start; i < start + count; i++)
            {
                group[i].Ticket = Wrote(group[i]) ? ticket : 0;
            }

            return;
        }
    }

    // Holding the writer locks: begins a write transaction, first adopting the map size another process grew the store to.
    private nint BeginWriteLocked(LmdbErrors errors)
    {
        var env = Handle(errors);
        PinBeforeWriteLocked(errors);
        while (true)
        {
            var rc = LmdbNative.TxnBegin(env, 0, WriteFlags, out var txn);
            if (rc != LmdbNative.MapResized)
            {
                errors.Check(rc, "beginning a write transaction");
                return txn;
            }

            ResizeLocked(0, errors);
        }
    }

    private long Apply(LmdbWriter writer, LmdbWriteRequest request, nint txn)
    {
        switch (request.Kind)
        {
            case LmdbWriteKind.Put:
                writer.Put(request.First, request.Second);
                return -1;
            case LmdbWriteKind.Delete:
                writer.Delete(request.First);
                return -1;
            case LmdbWriteKind.DeleteRange:
                return writer.DeleteRange(request.First, request.Second);
            case LmdbWriteKind.PruneFeed:
                return FeedDbi == 0 ? 0 : ChangeFeed.Lmdb.LmdbChangeLog.Prune(txn, FeedDbi, System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(request.Second));
            default:
                return writer.Write(request.Batch!);
        }
    }

    // A batch whose precondition failed wrote nothing, nor did a prune that found nothing to remove; every other write did (or tried to).
    private static bool Wrote(LmdbWriteRequest request) => request.Kind switch
    {
        LmdbWriteKind.Batch => request.Result < 0,
        LmdbWriteKind.PruneFeed => request.Result > 0,
        _ => true,
    };

    private static long SizeHint(List<LmdbWriteRequest> group, int start, int count)
    {
        long bytes = 0;
        for (var i = start; i < start + count; i++)
        {
            bytes += group[i].SizeHint();
        }

        return bytes;
    }
}

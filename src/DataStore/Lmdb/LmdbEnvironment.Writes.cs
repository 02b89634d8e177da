using System.Diagnostics;
using DataStore.Sync;
using DataStore.Writes;

namespace DataStore.Lmdb;

internal sealed partial class LmdbEnvironment : IWriteGroupRunner<LmdbErrors>
{
    private readonly CombinedWriter<LmdbErrors> _writes = new();
    private readonly ChangeFeed.ChangeRecord _record = new();

    /// <summary>How many commits carried more than one caller's write (for tests and diagnostics).</summary>
    internal long CombinedCommits => _writes.CombinedCommits;

    /// <summary>How many callers wait for the writer now (for tests).</summary>
    internal int PendingWrites => _writes.PendingWrites;

    /// <summary>
    /// Runs the write in an LMDB write transaction behind the writer locks, growing the map and retrying when it fills,
    /// and commits it, its pages synced and its meta page not (MDB_NOMETASYNC); concurrent callers' writes share one transaction (<see cref="CombinedWriter{TErrors}"/>).
    /// Returns the operation's result (keys removed, or a failed precondition's index, or -1) and the commit's ticket
    /// for <see cref="GroupSync.WaitUntilSynced"/> (0 when nothing was committed).
    /// </summary>
    public long Write(LmdbErrors errors, WriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket) =>
        _writes.Write(this, errors, kind, first, second, batch, out ticket);

    // With a Durable store in the process, the leader waits for its group's sync, so its callers are woken once.
    void IWriteGroupRunner<LmdbErrors>.WaitForSync(long ticket)
    {
        if (Volatile.Read(ref _durableStores) > 0)
        {
            Sync.WaitUntilSynced(ticket);
        }
    }

    // The leader takes both writer locks, in this process and across processes, within its caller's timeout.
    void IWriteGroupRunner<LmdbErrors>.Enter(QueuedWrite<LmdbErrors> leader, long started)
    {
        var errors = leader.Errors;
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
        }
        catch
        {
            Monitor.Exit(_writeLock);
            throw;
        }
    }

    void IWriteGroupRunner<LmdbErrors>.Exit()
    {
        _writers.Release();
        Monitor.Exit(_writeLock);
    }

    long IWriteGroupRunner<LmdbErrors>.Commit(List<QueuedWrite<LmdbErrors>> group, int start, int count) => WriteLocked(group, start, count);

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

    // One transaction for writes [start, start + count) of the group: a full map aborts it, grows the map and runs it
    // again. Returns the commit's ticket, or 0 when nothing changed (aborted, nothing committed).
    private long WriteLocked(List<QueuedWrite<LmdbErrors>> group, int start, int count)
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
                    wrote |= request.Wrote;
                    if (FeedLogging && request.Kind is not (WriteKind.PruneFeed or WriteKind.RestartFeed) && request.Wrote)
                    {
                        // Each caller's commit gets its own record and sequence, in this transaction (ADR 0020).
                        ChangeFeed.Lmdb.LmdbChangeLog.Append(txn, FeedDbi, request.Describe(_record));
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
                return 0;
            }

            var rc = LmdbNative.TxnCommit(txn);
            if (rc == LmdbNative.MapFull)
            {
                Grow(SizeHint(group, start, count), errors);
                continue;
            }

            errors.Check(rc, "committing");
            CheckpointIfBehindLocked(errors, PagesWritten(group, start, count));
            return Sync.Committed();
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

    private long Apply(LmdbWriter writer, QueuedWrite<LmdbErrors> request, nint txn)
    {
        switch (request.Kind)
        {
            case WriteKind.Put:
                writer.Put(request.First, request.Second);
                return -1;
            case WriteKind.Delete:
                writer.Delete(request.First);
                return -1;
            case WriteKind.DeleteRange:
                return writer.DeleteRange(request.First, request.Second);
            case WriteKind.PruneFeed:
                return FeedDbi == 0 ? 0 : ChangeFeed.Lmdb.LmdbChangeLog.Prune(txn, FeedDbi, System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(request.Second));
            case WriteKind.RestartFeed:
                return ChangeFeed.Lmdb.LmdbChangeLog.AppendRestart(txn, FeedDbi, System.Buffers.Binary.BinaryPrimitives.ReadInt64LittleEndian(request.Second));
            default:
                return writer.Write(request.Batch!);
        }
    }

    private static long SizeHint(List<QueuedWrite<LmdbErrors>> group, int start, int count)
    {
        long bytes = 0;
        for (var i = start; i < start + count; i++)
        {
            bytes += group[i].SizeHint();
        }

        return bytes;
    }
}

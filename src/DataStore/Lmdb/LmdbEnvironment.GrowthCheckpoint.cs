using DataStore.Writes;

namespace DataStore.Lmdb;

/// <summary>
/// The checkpoint that bounds the file under steady writing (ADR 0006, "The growth checkpoint in the background"):
/// pages freed after the recorded pin cannot be reused, so once the commits since it have written a share of the tree
/// (a quarter of its pages, at least 128), a writer pins the newest transaction (a few microseconds, under the writer
/// locks) and a pool thread syncs and records it while the writers go on. A writer waits only when the commits since the
/// recorded pin reach three shares before that sync has landed: past that the file would grow beyond its bound.
/// </summary>
/// <remarks>
/// Pages written are counted per commit from the tree's shape (its depth, leaf pages and the bytes written; LMDB does
/// not report a transaction's dirty pages), and the file's growth past the recorded pin counts too, whichever is more.
/// At most one such checkpoint runs at a time; closing and Compact wait for it (holding the writer lock, so none starts).
/// </remarks>
internal sealed partial class LmdbEnvironment
{
    private const long MinimumCheckpointPages = 128;

    private const int GrowthIdle = 0;
    private const int GrowthQueued = 1;
    private const int GrowthRunning = 2;

    private readonly object _growthGate = new();
    private int _growthState;
    private SyncPoint _queuedPoint;
    private long _pagesWritten;
    private long _pagesAtRecord;
    private long _recordedLastPage;
    private long _treeDepth = 1;
    private long _leafPages = 1;
    private long _livePages;
    private long _pageSize = 4096;

    /// <summary>How many checkpoints the writers' volume started in the background (for tests and diagnostics).</summary>
    internal long BackgroundCheckpoints { get; private set; }

    /// <summary>How many commits waited for a background checkpoint to land, because the file would have grown past its bound.</summary>
    internal long BoundWaits { get; private set; }

    // After a commit, holding the writer locks: start the next checkpoint in the background once the commits since the
    // recorded pin wrote a share of the tree, and wait for it only when they wrote three shares.
    private void CheckpointIfBehindLocked(LmdbErrors errors, long pages)
    {
        if (_pin == 0)
        {
            return;
        }

        _pagesWritten += pages;
        var share = Math.Max(MinimumCheckpointPages, _livePages / 4);
        if (PagesSinceRecord() < share)
        {
            return;
        }

        if (PagesSinceRecord() >= 3 * share)
        {
            BoundWaits++;
            FinishBackgroundCheckpoint(errors);
            if (PagesSinceRecord() >= 3 * share)
            {
                CheckpointLocked(errors); // none ran, or it failed: on the writer's path, where a failure reaches the caller
                return;
            }
        }

        lock (_growthGate)
        {
            if (_growthState != GrowthIdle || PagesSinceRecord() < share)
            {
                return;
            }

            _growthState = GrowthQueued;
        }

        try
        {
            _queuedPoint = PinLocked(errors);
            BackgroundCheckpoints++;
            ThreadPool.UnsafeQueueUserWorkItem(static environment => environment.RunQueuedCheckpoint(), this, preferLocal: false);
        }
        catch
        {
            FinishBackgroundCheckpoint(errors); // not queued: sync and record it here (or nothing, when the pin failed)
            throw;
        }
    }

    // On a pool thread: no exception leaves it. A failed checkpoint lets its pin go and keeps the recorded one, so the
    // writers reach the bound and checkpoint on their own path, where the failure reaches a caller.
    private void RunQueuedCheckpoint()
    {
        try
        {
            RunQueued(errors: null);
        }
        catch (Exception)
        {
            // Nothing escapes a pool thread. Retried by the next writer past the share, or on its own path at the bound.
        }
    }

    /// <summary>
    /// Holding the writer lock (so none starts meanwhile): returns once no checkpoint is queued or running. One queued but
    /// not yet started (the pool may be busy with the very threads that wait for this writer) runs here, on this thread.
    /// </summary>
    private void FinishBackgroundCheckpoint(LmdbErrors errors)
    {
        RunQueued(errors);
        lock (_growthGate)
        {
            while (_growthState != GrowthIdle)
            {
                Monitor.Wait(_growthGate);
            }
        }
    }

    // Runs the queued checkpoint, if nobody took it yet, on this thread.
    private void RunQueued(LmdbErrors? errors)
    {
        SyncPoint point;
        lock (_growthGate)
        {
            if (_growthState != GrowthQueued)
            {
                return;
            }

            _growthState = GrowthRunning;
            point = _queuedPoint;
            _queuedPoint = default;
        }

        try
        {
            if (point.Pin != 0)
            {
                SyncAndRecord(point, errors ?? _syncErrors!);
            }
        }
        finally
        {
            lock (_growthGate)
            {
                _growthState = GrowthIdle;
                Monitor.PulseAll(_growthGate);
            }
        }
    }

    // Pages written since the recorded pin: counted per commit, or the file's growth past it, whichever is more.
    private long PagesSinceRecord()
    {
        var grown = LmdbNative.EnvInfoOf(_env, out var info) == LmdbNative.Success ? (long)info.LastPage - Volatile.Read(ref _recordedLastPage) : 0;
        return Math.Max(_pagesWritten - Volatile.Read(ref _pagesAtRecord), grown);
    }

    // About the pages a commit of these writes dirtied: the path to one leaf (as deep as the tree) and the free-page
    // tree's record, one more leaf for each further operation (at most every leaf), and the bytes written.
    private long PagesWritten(List<QueuedWrite<LmdbErrors>> group, int start, int count)
    {
        long operations = 0, bytes = 0;
        for (var i = start; i < start + count; i++)
        {
            operations += group[i].Batch?.OperationCount ?? 1;
            bytes += group[i].SizeHint();
        }

        return _treeDepth + 2 + Math.Min(operations - 1, _leafPages) + (bytes / _pageSize);
    }

    private void NoteTreeShape(LmdbNative.DbStat pairs) =>
        (_treeDepth, _leafPages, _livePages, _pageSize) = (Math.Max(1, pairs.Depth), Math.Max(1, (long)pairs.LeafPages),
            (long)(pairs.BranchPages + pairs.LeafPages + pairs.OverflowPages), Math.Max(512, pairs.PageSize));

    private void NoteRecorded(SyncPoint point)
    {
        Volatile.Write(ref _pagesAtRecord, point.PagesWritten);
        Volatile.Write(ref _recordedLastPage, point.LastPage);
    }
}

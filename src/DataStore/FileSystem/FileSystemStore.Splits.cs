using System.Diagnostics;

namespace DataStore.FileSystem;

// Splits prepared beside the writers (SplitPreparation, ADR 0008): a write that finds its leaf three quarters full asks
// for one; it runs on the thread pool, one at a time per store, as a call the store's Dispose waits for.
internal sealed partial class FileSystemStore
{
    private readonly HashSet<string> _declined = [];

    /// <summary>Guards <see cref="_preparing"/> and is pulsed when a preparation ends (published or given up).</summary>
    private readonly object _preparationEnded = new();
    private bool _preparing;
    private int _holds;
    private double _longestHold;

    /// <summary>Starts preparing the split a write asked for, if none runs in this process; call after the write lock is let go.</summary>
    private void PrepareSplitIfWanted()
    {
        if (_writer.TakePreparationWanted() is not { } prefix || !BeginPreparation())
        {
            return;
        }

        lock (_declined)
        {
            if (_declined.Contains(Convert.ToHexString(prefix)))
            {
                EndPreparation(); // it failed once here: this leaf splits the old way
                return;
            }
        }

        ThreadPool.UnsafeQueueUserWorkItem(static work => work.Store.PrepareSplit(work.Prefix), (Store: this, Prefix: prefix), preferLocal: false);
    }

    private void PrepareSplit(byte[] prefix)
    {
        try
        {
            if (!TryEnterCall())
            {
                return;
            }

            try
            {
                var begun = Stopwatch.GetTimestamp();
                (_holds, _longestHold) = (0, 0);
                var preparation = new SplitPreparation(_directory, _layout, _state, _maxEntries, UnderWriteLock, () => IsDisposed, _writer.Unsynced);
                if (!preparation.Run(prefix))
                {
                    Decline(prefix);
                }
                else if (preparation.Changes >= 0)
                {
                    FileSystemLog.SplitPrepared(_logger, Convert.ToHexString(prefix), _directory, _holds, _longestHold, preparation.Changes,
                        Stopwatch.GetElapsedTime(begun).TotalMilliseconds, preparation.Holds.ToString(), preparation.Holds.SyncsUnderLock);
                }
            }
            finally
            {
                ExitCall();
            }
        }
        catch (Exception e)
        {
            // No exception leaves a thread the library started; the leaf splits the old way when full.
            FileSystemLog.SplitPreparationFailed(_logger, e, _directory);
            Decline(prefix);
        }
        finally
        {
            EndPreparation();
        }
    }

    private bool BeginPreparation()
    {
        lock (_preparationEnded)
        {
            if (_preparing)
            {
                return false;
            }

            _preparing = true;
            return true;
        }
    }

    private void EndPreparation()
    {
        lock (_preparationEnded)
        {
            _preparing = false;
            Monitor.PulseAll(_preparationEnded);
        }
    }

    /// <summary>
    /// Waits (at most 30 s) for a split being prepared to publish or give up: its hard links in the child directories
    /// keep the data of keys deleted meanwhile on disk until then, and Compact is asked to give that space back.
    /// Woken by the preparation's end, not by polling.
    /// </summary>
    private void WaitForSplitPreparation()
    {
        var begun = Stopwatch.GetTimestamp();
        lock (_preparationEnded)
        {
            while (_preparing)
            {
                var left = TimeSpan.FromSeconds(30) - Stopwatch.GetElapsedTime(begun);
                if (left <= TimeSpan.Zero || !Monitor.Wait(_preparationEnded, left))
                {
                    return;
                }
            }
        }
    }

    private void Decline(byte[] prefix)
    {
        lock (_declined)
        {
            _declined.Add(Convert.ToHexString(prefix));
        }
    }

    /// <summary>Runs one step of a preparation holding the write lock (completing any unfinished change first, as every writer does).</summary>
    private bool UnderWriteLock(Func<bool> step)
    {
        _locks.EnterWrite();
        var held = Stopwatch.GetTimestamp();
        try
        {
            if ((_state.Changes & 1) != 0)
            {
                _writer.Recover();
            }

            _writer.BeginWrite();
            var result = step();
            _state.EndChange();
            return result;
        }
        finally
        {
            _locks.ExitWrite();
            _holds++;
            _longestHold = Math.Max(_longestHold, Stopwatch.GetElapsedTime(held).TotalMilliseconds);
        }
    }
}

namespace DataStore.Sync;

/// <summary>
/// Group commit: every commit recorded before a sync began is covered by it, so concurrent durable writers share one
/// sync instead of paying one each. Durable writers wait in <see cref="WaitUntilSynced"/>; Relaxed stores call
/// <see cref="SyncIfDirty"/> from a timer.
/// </summary>
/// <remarks>The sync action runs outside the gate, so later committers queue behind it; an exception it throws reaches
/// the writer that led that sync, and the commits it covered stay unsynced for the next leader.</remarks>
internal sealed class GroupSync(Action sync)
{
    private readonly object _gate = new();
    private long _committed;
    private long _synced;
    private bool _syncing;

    /// <summary>True when a commit was recorded that no finished sync covers yet.</summary>
    public bool Dirty => Volatile.Read(ref _synced) < Volatile.Read(ref _committed);

    /// <summary>Records a commit and returns its ticket for <see cref="WaitUntilSynced"/>; call right after the commit.</summary>
    public long Committed() => Interlocked.Increment(ref _committed);

    /// <summary>Returns once a sync that started after commit <paramref name="ticket"/> has finished.</summary>
    public void WaitUntilSynced(long ticket)
    {
        if (Volatile.Read(ref _synced) >= ticket)
        {
            return; // the callers a leader wakes after its group's sync find it done without taking the gate
        }

        lock (_gate)
        {
            while (_synced < ticket)
            {
                if (_syncing)
                {
                    Monitor.Wait(_gate);
                    continue;
                }

                SyncAsLeader();
            }
        }
    }

    /// <summary>Syncs when anything was committed since the last sync (the background flush of a Relaxed store).</summary>
    public void SyncIfDirty()
    {
        lock (_gate)
        {
            WaitForSyncInProgress();
            if (_synced < Volatile.Read(ref _committed))
            {
                SyncAsLeader();
            }
        }
    }

    /// <summary>Runs <paramref name="action"/> with no sync in progress and none starting (to close or replace what is synced).</summary>
    public void RunBetweenSyncs(Action action)
    {
        lock (_gate)
        {
            WaitForSyncInProgress();
            action();
        }
    }

    private void WaitForSyncInProgress()
    {
        while (_syncing)
        {
            Monitor.Wait(_gate);
        }
    }

    // Called holding the gate; releases it while the sync runs so later committers can queue behind it.
    private void SyncAsLeader()
    {
        _syncing = true;
        var target = Volatile.Read(ref _committed);
        try
        {
            Monitor.Exit(_gate);
            try
            {
                sync();
            }
            finally
            {
                Monitor.Enter(_gate);
            }

            Volatile.Write(ref _synced, Math.Max(_synced, target));
        }
        finally
        {
            _syncing = false;
            Monitor.PulseAll(_gate);
        }
    }
}

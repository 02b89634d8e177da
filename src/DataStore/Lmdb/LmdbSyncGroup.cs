namespace DataStore.Lmdb;

/// <summary>
/// Syncs an environment's committed transactions to disk with group commit: every commit made before a sync began
/// is covered by it, so concurrent durable writers share one <c>mdb_env_sync</c>. Commits are made with
/// <c>MDB_NOSYNC</c>; durable writers wait in <see cref="WaitUntilSynced"/>, Relaxed stores call
/// <see cref="SyncIfDirty"/> from a timer.
/// </summary>
internal sealed class LmdbSyncGroup(Func<nint> env)
{
    private readonly object _gate = new();
    private long _committed;
    private long _synced;
    private bool _syncing;

    /// <summary>Records a commit and returns its ticket for <see cref="WaitUntilSynced"/>; call right after the commit.</summary>
    public long Committed() => Interlocked.Increment(ref _committed);

    /// <summary>True when something was committed since the last sync.</summary>
    public bool Dirty => Volatile.Read(ref _synced) < Volatile.Read(ref _committed);

    /// <summary>Returns once a sync that started after commit <paramref name="ticket"/> has finished; throws <see cref="LmdbException"/> when it failed.</summary>
    public void WaitUntilSynced(long ticket)
    {
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

    /// <summary>Syncs when anything was committed since the last sync.</summary>
    public void SyncIfDirty()
    {
        lock (_gate)
        {
            while (_syncing)
            {
                Monitor.Wait(_gate);
            }

            if (_synced < Volatile.Read(ref _committed))
            {
                SyncAsLeader();
            }
        }
    }

    /// <summary>Runs <paramref name="action"/> with no sync in progress and none starting (to replace the environment).</summary>
    public void RunBetweenSyncs(Action action)
    {
        lock (_gate)
        {
            while (_syncing)
            {
                Monitor.Wait(_gate);
            }

            action();
        }
    }

    // Called holding the gate; releases it while the fsync runs so later committers queue behind it.
    private void SyncAsLeader()
    {
        _syncing = true;
        var target = Volatile.Read(ref _committed);
        try
        {
            int rc;
            Monitor.Exit(_gate);
            try
            {
                rc = LmdbNative.EnvSync(env(), 1);
            }
            finally
            {
                Monitor.Enter(_gate);
            }

            LmdbException.Check(rc);
            _synced = Math.Max(_synced, target);
        }
        finally
        {
            _syncing = false;
            Monitor.PulseAll(_gate);
        }
    }
}

namespace DataStore.Sqlite;

/// <summary>
/// Makes committed WAL frames durable by syncing the <c>-wal</c> file, with group commit: every writer that
/// committed before a sync began is covered by it, so concurrent durable writers share one fsync.
/// </summary>
/// <remarks>
/// The connections run with <c>synchronous=NORMAL</c>: a commit writes its frames to the WAL without syncing.
/// Syncing the WAL file afterwards makes those frames, and so the commit, survive a power loss; checkpoints
/// sync the database file themselves before the WAL is reused. Relaxed stores call <see cref="SyncIfDirty"/> from
/// a timer; durable writes wait in <see cref="WaitUntilSynced"/>.
/// </remarks>
internal sealed class WalFileSync(string walFile) : IDisposable
{
    private readonly object _gate = new();
    private long _committed;
    private long _synced;
    private bool _syncing;
    private bool _directorySynced;
    private bool _disposed;
    private FileStream? _wal;

    /// <summary>Records a commit and returns its ticket for <see cref="WaitUntilSynced"/>; call right after the commit.</summary>
    public long Committed() => Interlocked.Increment(ref _committed);

    /// <summary>Returns once a sync that started after commit <paramref name="ticket"/> has finished.</summary>
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

    /// <summary>Syncs when anything was committed since the last sync (the background flush of a Relaxed store).</summary>
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

    /// <summary>Waits for a sync in progress, then closes the WAL handle; later syncs throw <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            while (_syncing)
            {
                Monitor.Wait(_gate);
            }

            _disposed = true;
            _wal?.Dispose();
            _wal = null;
        }
    }

    // Called holding the gate; releases it while the fsync runs so later committers can queue behind it.
    private void SyncAsLeader()
    {
        _syncing = true;
        var target = Volatile.Read(ref _committed);
        try
        {
            Monitor.Exit(_gate);
            try
            {
                Wal().Flush(flushToDisk: true);
                if (!_directorySynced)
                {
                    // The first sync also makes the database and WAL files' directory entries durable.
                    Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(walFile)!);
                    _directorySynced = true;
                }
            }
            finally
            {
                Monitor.Enter(_gate);
            }

            _synced = Math.Max(_synced, target);
        }
        finally
        {
            _syncing = false;
            Monitor.PulseAll(_gate);
        }
    }

    private FileStream Wal()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        return _wal ??= new FileStream(walFile, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
    }
}

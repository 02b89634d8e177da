using DataStore.Sync;

namespace DataStore.Sqlite;

/// <summary>
/// Makes committed WAL frames durable by syncing the <c>-wal</c> file, with group commit (<see cref="GroupSync"/>):
/// every writer that committed before a sync began is covered by it, so concurrent durable writers share one fsync.
/// </summary>
/// <remarks>
/// The connections run with <c>synchronous=NORMAL</c>: a commit writes its frames to the WAL without syncing.
/// Syncing the WAL file afterwards makes those frames, and so the commit, survive a power loss; checkpoints
/// sync the database file themselves before the WAL is reused. Relaxed stores call <see cref="SyncIfDirty"/> from
/// a timer; durable writes wait in <see cref="WaitUntilSynced"/>.
/// </remarks>
internal sealed class WalFileSync : IDisposable
{
    private readonly string _walFile;
    private readonly GroupSync _group;
    private bool _directorySynced;
    private bool _disposed;
    private FileStream? _wal;

    public WalFileSync(string walFile)
    {
        _walFile = walFile;
        _group = new GroupSync(SyncWal);
    }

    /// <summary>Records a commit and returns its ticket for <see cref="WaitUntilSynced"/>; call right after the commit.</summary>
    public long Committed() => _group.Committed();

    /// <summary>Returns once a sync that started after commit <paramref name="ticket"/> has finished.</summary>
    /// <exception cref="DataStoreException">The sync failed: the write is committed but may not survive a power loss; names the store.</exception>
    public void WaitUntilSynced(long ticket, string directory, StoreBackend backend)
    {
        try
        {
            _group.WaitUntilSynced(ticket);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DataStoreException(StoreFailure.Io, directory, backend,
                $"the write was committed but syncing it to disk failed ({e.Message}); it survives a crash of this process but may not survive a power loss.", e);
        }
    }

    /// <summary>Syncs when anything was committed since the last sync (the background flush of a Relaxed store).</summary>
    public void SyncIfDirty() => _group.SyncIfDirty();

    /// <summary>Waits for a sync in progress, then closes the WAL handle; later syncs throw <see cref="ObjectDisposedException"/>.</summary>
    public void Dispose() => _group.RunBetweenSyncs(() =>
    {
        _disposed = true;
        _wal?.Dispose();
        _wal = null;
    });

    // Runs outside the group's gate, one leader at a time.
    private void SyncWal()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        _wal ??= new FileStream(_walFile, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, bufferSize: 0);
        _wal.Flush(flushToDisk: true);
        if (!_directorySynced)
        {
            // The first sync also makes the database and WAL files' directory entries durable.
            Platform.DirectorySync.Sync(System.IO.Path.GetDirectoryName(_walFile)!);
            _directorySynced = true;
        }
    }
}

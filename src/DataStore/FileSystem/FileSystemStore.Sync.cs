using DataStore.Platform;
using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

// Durability: a Durable write syncs its directory before returning (shared by concurrent writers); a Relaxed store
// syncs its file system in the background. Key files are flushed before their rename at both levels (ADR 0008).
internal sealed partial class FileSystemStore
{
    /// <summary>
    /// Makes a returned write durable: a Durable one fsyncs the directories it changed (shared by concurrent writers)
    /// and the leaf of a split being prepared, or the whole file system when a split's moves are not synced yet; a
    /// Relaxed one leaves it to the background sync.
    /// Runs after the write lock is let go.
    /// </summary>
    private void AfterWrite(string directory, string[] parents, SplitSync split)
    {
        if (_durability == Durability.Relaxed)
        {
            Volatile.Write(ref _dirty, 1);
            return;
        }

        try
        {
            if (split.Unsynced)
            {
                // A directory sync could make some of the split's moves durable without the others.
                FileSystemSync.Sync(_directory);
                try
                {
                    ForgetSyncedSplit(split.Generation, wait: true);
                }
                catch (StoreTimeoutException)
                {
                    // The write is durable; the split's record goes with a later sync.
                }

                return;
            }

            foreach (var parent in parents)
            {
                _directorySync.Sync(parent);
            }

            _directorySync.Sync(directory);
            if (split.PreparedLeaf is { } leaf && leaf != directory)
            {
                _directorySync.Sync(leaf); // its marker: recovery removes the children (this write's, after the publish) when it is not on disk
            }
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw new DataStoreException(StoreFailure.Io, _directory, StoreBackend.FileSystem,
                $"the write was made but syncing it to disk failed ({e.Message}); it survives a crash of this process but may not survive a power loss.", e);
        }
    }

    /// <summary>Whether a split awaits its file system sync (and the layout generation then), or the leaf of one being prepared; Durable writes only (call holding the write lock).</summary>
    private SplitSync PendingSplit() =>
        _durability != Durability.Durable ? default
        : _writer.MovesUnsynced ? new SplitSync(true, _state.LayoutGeneration)
        : new SplitSync(false, 0, _writer.PreparedLeaf());

    /// <summary>
    /// After a file system sync that began at layout generation <paramref name="generation"/>, drops the record of the
    /// split it made durable, unless another split came since. Returns false when the lock was busy (<paramref name="wait"/> false).
    /// </summary>
    private bool ForgetSyncedSplit(long generation, bool wait)
    {
        if (wait)
        {
            _locks.EnterWrite();
        }
        else if (!_locks.TryEnterWrite())
        {
            return false;
        }

        try
        {
            if (_state.LayoutGeneration == generation && (_state.Changes & 1) == 0 && _writer.SplitUnsynced)
            {
                _writer.DropSyncedSplit();
            }

            return true;
        }
        finally
        {
            _locks.ExitWrite();
        }
    }

    private void SyncInBackground()
    {
        if (Interlocked.Exchange(ref _dirty, 0) == 0)
        {
            return;
        }

        // A split made before this sync began is durable once it completes: its record can go (LeafSplitter).
        var generation = _state.LayoutGeneration;
        var split = _writer.SplitUnsynced;
        var unsynced = _writer.Unsynced?.Mark() ?? 0;
        try
        {
            FileSystemSync.Sync(_directory);
            _writer.Unsynced?.Forget(unsynced);
            if (split && !ForgetSyncedSplit(generation, wait: false))
            {
                Volatile.Write(ref _dirty, 1);
            }
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            Volatile.Write(ref _dirty, 1);
            Diagnostics.StoreLog.BackgroundSyncFailed(_logger, e, StoreBackend.FileSystem, _directory);
        }
    }
}

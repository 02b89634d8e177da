using DataStore.Platform;
using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

// Durability: a Durable write syncs its directory before returning (shared by concurrent writers); a Relaxed store
// syncs its file system in the background. Key files are flushed before their rename at both levels (ADR 0008).
internal sealed partial class FileSystemStore
{
    private void AfterWrite(string directory)
    {
        if (_durability == Durability.Relaxed)
        {
            Volatile.Write(ref _dirty, 1);
            return;
        }

        try
        {
            _directorySync.Sync(directory);
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            throw new DataStoreException(StoreFailure.Io, _directory, StoreBackend.FileSystem,
                $"the write was made but syncing it to disk failed ({e.Message}); it survives a crash of this process but may not survive a power loss.", e);
        }
    }

    private void SyncInBackground()
    {
        if (Interlocked.Exchange(ref _dirty, 0) == 0)
        {
            return;
        }

        try
        {
            FileSystemSync.Sync(_directory);
        }
        catch (Exception e) when (FileSystemErrors.IsFileSystemError(e))
        {
            Volatile.Write(ref _dirty, 1);
            Diagnostics.StoreLog.BackgroundSyncFailed(_logger, e, StoreBackend.FileSystem, _directory);
        }
    }
}

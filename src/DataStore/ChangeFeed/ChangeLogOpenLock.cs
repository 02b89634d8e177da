using DataStore.Platform;

namespace DataStore.ChangeFeed;

/// <summary>
/// Lets the last process to close a store cleanly take back the store's <c>changelog-unsynced</c> mark
/// (<see cref="ChangeLogRestart"/>), so a machine restart after a clean close costs subscribers no
/// <see cref="StoreChangeKind.Resynchronize"/>: every process that writes to a store with the feed holds the lock file
/// <c>changelog-unsynced.lock</c> shared from before it reads the mark until it closes; a close that then gets it
/// exclusively knows no other writer has the store open, syncs the file system (every commit any writer made is then on
/// disk) and removes the mark, durably.
/// </summary>
/// <remarks>
/// A close that fails, a kill or a crash leaves the mark, which is the safe side: the next boot's first open restarts the
/// log. A process of an older library version, which takes no such lock, can have the mark removed under it; it rewrites
/// the mark only at its next open.
/// </remarks>
internal sealed class ChangeLogOpenLock : IDisposable
{
    /// <summary>The lock file's name in the store's directory; it holds no data.</summary>
    public const string FileName = ChangeLogRestart.MarkerName + ".lock";

    private readonly FileLock _lock;
    private readonly string _directory;

    private ChangeLogOpenLock(FileLock fileLock, string directory)
    {
        _lock = fileLock;
        _directory = directory;
    }

    /// <summary>Takes the lock shared, waiting at most <paramref name="timeout"/> for a closing process to finish.</summary>
    /// <exception cref="StoreTimeoutException">A closing process held it longer.</exception>
    public static ChangeLogOpenLock Enter(string directory, StoreBackend backend, TimeSpan timeout) =>
        new(FileLock.OpenAndWait(Path.Combine(directory, FileName), exclusive: false, timeout, TimeSpan.FromMilliseconds(1))
            ?? throw new StoreTimeoutException(directory, backend, timeout), directory);

    /// <summary>
    /// Called once the store is closed, every commit of this process written to its files: removes the mark when no
    /// other writer has the store open. Never throws; a failure leaves the mark.
    /// </summary>
    public void CloseCleanly()
    {
        try
        {
            _lock.Exit();
            if (_lock.TryEnter(exclusive: true))
            {
                var marker = Path.Combine(_directory, ChangeLogRestart.MarkerName);
                if (File.Exists(marker))
                {
                    FileSystemSync.Sync(_directory); // every writer's commits, before the mark that covers them goes
                    File.Delete(marker);
                    DirectorySync.Sync(_directory);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The mark stays: the next boot's first open restarts the log, as after a power loss.
        }
        finally
        {
            Dispose();
        }
    }

    /// <summary>Lets go without touching the mark (a close that failed).</summary>
    public void Dispose()
    {
        _lock.Exit();
        _lock.Dispose();
    }
}

using DataStore.Platform;

namespace DataStore.ChangeFeed;

/// <summary>
/// Takes back the store's <c>changelog-unsynced</c> mark (<see cref="ChangeLogRestart"/>) at the last clean close (ADR 0020,
/// <i>A clean close takes the mark back</i>), so a machine restart after it costs subscribers no
/// <see cref="StoreChangeKind.Resynchronize"/>. It runs with the store's open lock held exclusively, taken without waiting by
/// a close (<see cref="Manifest.StoreOpenLock.Release"/>) or held by the change-feed switch: no other process has the store
/// open, so syncing the file system puts every commit any process made on disk (a killed one's too: they are in the page
/// cache), and the mark that covered them can go.
/// </summary>
/// <remarks>
/// A close that fails, a kill or a crash leaves the mark, which is the safe side: the next boot's first open restarts the log.
/// A process that holds no open lock (a directory it may not write to, a library version before the lock) is not seen, so
/// the mark can be taken back under it; it marks the store again at its next open.
/// </remarks>
internal static class ChangeLogMarkTakeBack
{
    /// <summary>True when <paramref name="closed"/>, a store whose <c>Dispose(bool)</c> returned, leaves the mark to be taken back.</summary>
    public static bool After(object closed) => closed is IRestartMarkedStore { MarksRestart: true, ClosedCleanly: true };

    /// <summary>Syncs the file system and removes the mark, durably, when the store in <paramref name="directory"/> has one. Never throws; a failure leaves the mark.</summary>
    public static void Run(string directory)
    {
        try
        {
            var marker = Path.Combine(directory, ChangeLogRestart.MarkerName);
            if (File.Exists(marker))
            {
                FileSystemSync.Sync(directory); // every process's commits, before the mark that covers them goes
                File.Delete(marker);
                DirectorySync.Sync(directory);
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The mark stays: the next boot's first open restarts the log, as after a power loss.
        }
    }
}

using DataStore.Backup;

namespace DataStore.FileSystem;

/// <summary>
/// Copies a FileSystem store's key tree (<c>data/</c>) and manifest while the caller holds the store's shared lock
/// with no change in progress: writers in every process wait for the copy, so it can never hold half a batch, and no
/// journal, pending split or temporary file is ever copied. The copy's own opener creates fresh lock and state files.
/// </summary>
internal static class FileSystemBackup
{
    private const int ReportEvery = 256;

    /// <summary>Copies <paramref name="store"/>'s tree into <paramref name="destination"/>; call holding the shared lock.</summary>
    public static void CopyLocked(string store, string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        var source = System.IO.Path.Combine(store, "data");
        var total = DirectorySize.Of(source);
        long bytes = 0, files = 0;
        var pending = new Stack<(string From, string To)>();
        pending.Push((source, System.IO.Path.Combine(destination, "data")));
        while (pending.TryPop(out var directory))
        {
            Directory.CreateDirectory(directory.To);
            foreach (var entry in new DirectoryInfo(directory.From).EnumerateFileSystemInfos())
            {
                var target = System.IO.Path.Combine(directory.To, entry.Name);
                if (entry is DirectoryInfo)
                {
                    pending.Push((entry.FullName, target));
                    continue;
                }

                cancellationToken.ThrowIfCancellationRequested();
                File.Copy(entry.FullName, target);
                bytes += ((FileInfo)entry).Length;
                if (++files % ReportEvery == 0)
                {
                    progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, bytes, null, total));
                }
            }
        }

        BackupFiles.CopyManifest(store, destination);
        progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, bytes, null, total));
    }
}

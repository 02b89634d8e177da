using DataStore.Diagnostics;

namespace DataStore.Backup;

/// <summary>
/// Online copies of a store: checks the destination, lets the backend write its consistent copy
/// (<see cref="Backends.IBackendMaintenance.Backup"/>) into a hidden sibling directory on a thread-pool thread, makes it
/// durable and renames it into place; removes the partial copy when anything fails or the caller cancels.
/// </summary>
internal static class StoreBackup
{
    public static Task<BackupResult> RunAsync(IKeyValueStore store, string destinationPath, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        if (store is not Backends.IBackendMaintenance core || store.Backend == StoreBackend.InMemory)
        {
            throw new NotSupportedException(
                $"A {store.Backend} store has no files to back up; export it (StoreMaintenance.ExportAsync) and import the dump instead.");
        }

        core.ThrowIfDisposed();
        var destination = CheckDestination(store, destinationPath);
        return Task.Run(() => LongOperation.Run(StoreOperation.Backup, core.Telemetry, core.Backend, core.Path, activity =>
        {
            activity?.SetTag("datastore.destination.path", destination);
            var result = Run(core, destination, progress, cancellationToken);
            activity?.SetTag("datastore.bytes", result.Bytes);
            return result;
        }), cancellationToken);
    }

    private static BackupResult Run(Backends.IBackendMaintenance store, string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        var throttle = new ProgressThrottle(progress);
        throttle.ReportNow(new StoreProgress(StorePhase.BackingUp, 0, 0, null, null));
        var parent = System.IO.Path.GetDirectoryName(destination)
            ?? throw new ArgumentException($"The backup destination '{destination}' has no parent directory to build the copy beside.", nameof(destination));
        var staging = System.IO.Path.Combine(parent, $".{System.IO.Path.GetFileName(destination)}.backup-{Guid.NewGuid().ToString("N")[..8]}");
        var firstCreated = HighestMissing(parent);
        try
        {
            StoreFiles.Guard(store.Path, store.Backend, () =>
            {
                // Built beside the destination and renamed in once durable: a process killed part-way (or a power
                // loss) leaves a hidden directory, never a partial copy at the destination that opens as a store.
                Directory.CreateDirectory(staging);
                store.Backup(staging, throttle, cancellationToken);
                cancellationToken.ThrowIfCancellationRequested();
                BackupFiles.SyncTree(staging);
                if (Directory.Exists(destination))
                {
                    Directory.Delete(destination); // empty: CheckDestination refused anything else
                }

                Directory.Move(staging, destination);
                Platform.DirectorySync.Sync(parent);
                return 0;
            });
        }
        catch (PathTooLongException e)
        {
            RemoveStaging(staging, parent, firstCreated);
            throw new ArgumentException(
                $"The backup destination '{destination}' is too long for the file system (the copy is built beside it as '{System.IO.Path.GetFileName(staging)}'); choose a shorter path. {e.Message}",
                "destinationPath", e);
        }
        catch
        {
            RemoveStaging(staging, parent, firstCreated);
            throw;
        }

        var bytes = DirectorySize.Of(destination);
        throttle.ReportNow(new StoreProgress(StorePhase.BackingUp, 0, bytes, null, bytes));
        return new BackupResult(destination, bytes);
    }

    /// <summary>The destination as a full path; it must not exist or be an empty directory, and must lie outside the store.</summary>
    private static string CheckDestination(IKeyValueStore store, string destinationPath)
    {
        var destination = System.IO.Path.GetFullPath(destinationPath);
        var source = System.IO.Path.TrimEndingDirectorySeparator(System.IO.Path.GetFullPath(store.Path));
        var comparison = OperatingSystem.IsWindows() || OperatingSystem.IsMacOS() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
        var trimmed = System.IO.Path.TrimEndingDirectorySeparator(destination);
        if (trimmed.Equals(source, comparison) || trimmed.StartsWith(source + System.IO.Path.DirectorySeparatorChar, comparison))
        {
            throw new ArgumentException($"The backup destination '{destination}' lies inside the store '{source}'; choose a directory outside it.", nameof(destinationPath));
        }

        if (File.Exists(destination))
        {
            throw new ArgumentException($"The backup destination '{destination}' is a file; give a new or empty directory.", nameof(destinationPath));
        }

        if (Directory.Exists(destination) && Directory.EnumerateFileSystemEntries(destination).Any())
        {
            throw new ArgumentException($"The backup destination '{destination}' is not empty; give a new or empty directory, so no backup mixes with other files.", nameof(destinationPath));
        }

        return destination;
    }

    /// <summary>The highest ancestor of <paramref name="directory"/> (itself included) that does not exist yet, or null when it exists.</summary>
    private static string? HighestMissing(string directory)
    {
        string? missing = null;
        for (var at = directory; at is not null && !Directory.Exists(at); at = System.IO.Path.GetDirectoryName(at))
        {
            missing = at;
        }

        return missing;
    }

    // Removes the partial copy, and the parent directories the backup created for it while they are empty.
    private static void RemoveStaging(string staging, string parent, string? firstCreated)
    {
        try
        {
            if (Directory.Exists(staging))
            {
                Directory.Delete(staging, recursive: true);
            }

            for (var at = parent; firstCreated is not null && at is not null && at.Length >= firstCreated.Length; at = System.IO.Path.GetDirectoryName(at))
            {
                if (Directory.Exists(at))
                {
                    Directory.Delete(at); // not recursive: a directory someone else filled meanwhile stays
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // The original failure matters more; what is left is a hidden directory whose name says what it was.
        }
    }
}

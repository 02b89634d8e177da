namespace DataStore.Manifest;

/// <summary>
/// Establishes what a directory holds before any backend touches it (ADR 0013): an existing store (its manifest read
/// and its data file present), a new store to create (under <see cref="StoreCreationLock"/>), or files of a store
/// whose manifest was lost, which are refused rather than covered by a new, empty store.
/// </summary>
internal sealed class StoreIdentity : IDisposable
{
    private readonly string _directory;
    private StoreCreationLock? _creating;

    private StoreIdentity(string directory, StoreManifest manifest, StoreCreationLock? creating)
    {
        _directory = directory;
        Manifest = manifest;
        _creating = creating;
    }

    public StoreManifest Manifest { get; }

    /// <summary>Reads (or, for a new store, creates) the manifest of <paramref name="directory"/> and checks the store it describes.</summary>
    /// <exception cref="StoreFormatException">Engine files without a manifest, or a store whose data file is missing or empty.</exception>
    public static StoreIdentity Establish(string directory, DataStoreOptions options)
    {
        var creating = StoreManifest.Exists(directory) ? null : BeginCreation(directory, options);
        try
        {
            var manifest = StoreManifest.OpenOrCreate(directory, options);
            creating ??= ResumeOrThrowIfDataMissing(directory, manifest.Backend, options.Timeout);
            return new StoreIdentity(directory, manifest, creating);
        }
        catch
        {
            creating?.Dispose();
            throw;
        }
    }

    /// <summary>A new store's engine has created its files: makes them durable and lets other processes in.</summary>
    public void Created()
    {
        if (_creating is null)
        {
            return;
        }

        NewStoreSync.Sync(_directory, Manifest.Backend);
        StoreCreationLock.MarkCreated(_directory);
        _creating.Dispose();
        _creating = null;
    }

    /// <summary>Ends the open: a store this call was creating and did not finish keeps its marker, so the next open resumes the creation.</summary>
    public void Dispose()
    {
        _creating?.Dispose();
        _creating = null;
    }

    /// <summary>
    /// Takes the creation lock and marks the creation; null when creating is not allowed (the manifest's reader then
    /// says there is no store) or another process created the store while this one waited.
    /// </summary>
    private static StoreCreationLock? BeginCreation(string directory, DataStoreOptions options)
    {
        var requested = options.Backend ?? StoreBackend.Sqlite;
        ThrowIfOrphanedFiles(directory, requested); // before anything is written into the directory
        if (!options.CreateIfMissing)
        {
            return null;
        }

        Directory.CreateDirectory(directory);
        var creating = StoreCreationLock.Enter(directory, requested, options.Timeout);
        try
        {
            if (StoreManifest.Exists(directory))
            {
                creating.Dispose();
                return null;
            }

            ThrowIfOrphanedFiles(directory, requested);
            StoreCreationLock.MarkCreating(directory);
            return creating;
        }
        catch
        {
            creating.Dispose();
            throw;
        }
    }

    /// <summary>A directory with no manifest but another store's files is a store that lost its manifest: never create one over it.</summary>
    /// <remarks>
    /// Also called before the creation lock is taken, while another process may be creating the store: a creation
    /// writes the manifest before any engine file, so files found here are another process's new store, not an
    /// orphan, whenever the manifest exists once the files were seen.
    /// </remarks>
    private static void ThrowIfOrphanedFiles(string directory, StoreBackend requested)
    {
        var found = EngineFiles.Recognize(directory);
        if (found.Count == 0 || StoreManifest.Exists(directory))
        {
            return;
        }

        var backend = found.Count == 1 ? found[0].Backend : requested;
        var what = string.Join("; ", found.Select(f => $"{f.Backend} files ({string.Join(", ", f.Found)})"));
        var restore = found.Count == 1
            ? $" Restore {StoreManifest.FileName} from a backup, or write it again as {{\"backend\": \"{backend}\", \"formatVersion\": {StoreManifest.WithoutChangeFeedFormatVersion}, \"durability\": \"Relaxed\"}} if this store was written by this DataStore version."
            : " The files of several engines lie here; move the store you want into a directory of its own.";
        throw new StoreFormatException(StoreFailure.Corrupt, directory, backend,
            $"{StoreManifest.FileName} is missing, but the directory holds {what}: a store whose manifest was lost. Nothing was created.{restore}");
    }

    /// <summary>
    /// A store that has a manifest but lost its data file is damaged, not empty. A process still creating it is waited
    /// for first; a creation cut short (its marker still there) is resumed by this process, which then holds the lock.
    /// </summary>
    private static StoreCreationLock? ResumeOrThrowIfDataMissing(string directory, StoreBackend backend, TimeSpan timeout)
    {
        if (EngineFiles.MissingData(directory, backend) is null && !StoreCreationLock.WasCutShort(directory))
        {
            return null;
        }

        var creating = StoreCreationLock.Enter(directory, backend, timeout);
        if (StoreCreationLock.WasCutShort(directory))
        {
            return creating; // this open finishes the creation: the engine creates what is missing, then the marker goes
        }

        creating.Dispose();
        if (EngineFiles.MissingData(directory, backend) is { } missing)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, directory, backend,
                $"the store exists ({StoreManifest.FileName} names it) but {missing}: the data was deleted or lost. Restore the store from a backup; it is not opened as an empty store.");
        }

        return null;
    }
}

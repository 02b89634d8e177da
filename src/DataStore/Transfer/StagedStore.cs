using DataStore.Backends;
using DataStore.Manifest;
using DataStore.Platform;

namespace DataStore.Transfer;

/// <summary>
/// A new store built in a hidden sibling directory and renamed into place only when complete, so a failed or
/// cancelled import or migration leaves nothing at the destination.
/// </summary>
/// <remarks>
/// The rename is safe because no backend records its own directory inside the store (checked by the tests in
/// Transfer/StoreRenameTests). Writes go in with relaxed durability; <see cref="Commit"/> closes the store (which
/// syncs it), syncs its files (<c>BackupFiles.SyncTree</c>), renames, and syncs the parent directory.
/// </remarks>
internal sealed class StagedStore : IDisposable
{
    private readonly DataStoreOptions _open;
    private bool _finished;

    private StagedStore(string finalPath, string temporaryPath, StoreBackend backend, DataStoreOptions open)
    {
        FinalPath = finalPath;
        TemporaryPath = temporaryPath;
        Backend = backend;
        _open = open;
        Store = KeyValueStore.Open(open);
    }

    /// <summary>Where the store appears once committed.</summary>
    public string FinalPath { get; }

    /// <summary>The hidden sibling directory the store is built in.</summary>
    public string TemporaryPath { get; }

    /// <summary>The new store's backend.</summary>
    public StoreBackend Backend { get; }

    /// <summary>The store being built (opened with relaxed durability).</summary>
    public IKeyValueStore Store { get; private set; }

    /// <summary>
    /// Checks that <paramref name="destination"/> names a new (absent or empty) directory and an available persistent
    /// backend, then creates the store in a sibling directory.
    /// </summary>
    /// <param name="destination">The new store's path, backend and settings.</param>
    /// <param name="durability">The durability to record when <paramref name="destination"/> names none.</param>
    /// <param name="purpose">A word for the temporary directory's name ("import", "migrate").</param>
    public static StagedStore Create(DataStoreOptions destination, Durability durability, string purpose)
    {
        destination.Validate();
        if (destination.Backend == StoreBackend.InMemory)
        {
            throw new ArgumentException("The destination must be a persistent backend: an in-memory store would be lost when the operation returns.", nameof(destination));
        }

        var backend = destination.Backend ?? StoreBackend.Sqlite;
        var final = Path.TrimEndingDirectorySeparator(Path.GetFullPath(destination.Path));
        if (BackendCatalog.Find(backend) is null)
        {
            throw new DataStoreException(StoreFailure.Unavailable, final, backend, $"the backend cannot be opened: {BackendCatalog.WhyUnavailable(backend)}.");
        }

        return StoreFiles.Guard(final, backend, () =>
        {
            ThrowIfOccupied(final, backend);
            var parent = Path.GetDirectoryName(final) ?? throw new ArgumentException($"'{final}' has no parent directory to build the new store beside.", nameof(destination));
            Directory.CreateDirectory(parent);
            var temporary = Path.Combine(parent, $".{Path.GetFileName(final)}.{purpose}-{Guid.NewGuid().ToString("N")[..8]}");
            Directory.CreateDirectory(temporary);
            try
            {
                var record = destination.Clone();
                record.Path = temporary;
                record.Backend = backend;
                record.Durability = destination.Durability ?? durability;
                record.CreateIfMissing = true;
                StoreCreationLock.MarkCreating(temporary); // the open below creates the engine's files under this manifest
                StoreManifest.OpenOrCreate(temporary, record);

                var open = record.Clone();
                open.Durability = Durability.Relaxed;
                return new StagedStore(final, temporary, backend, open);
            }
            catch
            {
                DeleteQuietly(temporary);
                throw;
            }
        });
    }

    /// <summary>Closes the store (syncing it) and opens it again, as a reader of the finished copy would.</summary>
    public IKeyValueStore Reopen()
    {
        Store.Dispose();
        Store = KeyValueStore.Open(_open);
        return Store;
    }

    /// <summary>Closes and syncs the store, then renames it into place; on failure removes it.</summary>
    public void Commit()
    {
        _finished = true;
        try
        {
            Store.Dispose();
            StoreFiles.Guard(FinalPath, Backend, () =>
            {
                Backup.BackupFiles.SyncTree(TemporaryPath); // syncfs on Linux and macOS, each file on Windows
                ThrowIfOccupied(FinalPath, Backend);
                if (Directory.Exists(FinalPath))
                {
                    Directory.Delete(FinalPath);
                }

                Directory.Move(TemporaryPath, FinalPath);
                DirectorySync.Sync(Path.GetDirectoryName(FinalPath)!);
                return true;
            });
        }
        catch
        {
            DeleteQuietly(TemporaryPath);
            throw;
        }
    }

    /// <summary>Closes the store and removes its directory.</summary>
    public void Abandon()
    {
        if (_finished)
        {
            return;
        }

        _finished = true;
        try
        {
            Store.Dispose();
        }
        finally
        {
            DeleteQuietly(TemporaryPath);
        }
    }

    /// <summary>Abandons the store unless it was committed.</summary>
    public void Dispose() => Abandon();

    private static void ThrowIfOccupied(string final, StoreBackend backend)
    {
        if (File.Exists(final) || (Directory.Exists(final) && Directory.EnumerateFileSystemEntries(final).Any()))
        {
            throw new DataStoreException(StoreFailure.Io, final, backend,
                "the destination already exists and is not empty; import and migrate create a new store. Choose a new or empty directory.");
        }
    }

    private static void DeleteQuietly(string directory)
    {
        try
        {
            Directory.Delete(directory, recursive: true);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Nothing more can be done; the hidden directory's name says what it was.
        }
    }
}

using DataStore.Platform;

namespace DataStore.Manifest;

/// <summary>
/// The lock a process holds while it creates a store (marker, manifest, then the engine's files), so another process
/// that finds a manifest without its data file can wait for the creator before calling the store damaged; and the
/// marker that tells a creation cut short (kill -9, power loss) from a store that lost its data later.
/// </summary>
internal sealed class StoreCreationLock : IDisposable
{
    /// <summary>The lock file's name inside the store directory; it holds no data.</summary>
    public const string FileName = "datastore.lock";

    /// <summary>The marker's name: present from before the manifest is written until the new store's files are durable.</summary>
    public const string MarkerName = "datastore.creating";

    private readonly FileLock _lock;

    private StoreCreationLock(FileLock fileLock) => _lock = fileLock;

    /// <summary>Takes the lock, waiting at most <paramref name="timeout"/> for a creator to finish.</summary>
    /// <exception cref="StoreTimeoutException">Another process held it longer.</exception>
    public static StoreCreationLock Enter(string directory, StoreBackend backend, TimeSpan timeout) =>
        new(FileLock.OpenAndWait(System.IO.Path.Combine(directory, FileName), exclusive: true, timeout, TimeSpan.FromMilliseconds(5))
            ?? throw new StoreTimeoutException(directory, backend, timeout));

    /// <summary>True when a creation began in <paramref name="directory"/> and never finished.</summary>
    public static bool WasCutShort(string directory) => File.Exists(System.IO.Path.Combine(directory, MarkerName));

    /// <summary>Records, durably and before the manifest exists, that this store is being created.</summary>
    public static void MarkCreating(string directory)
    {
        SyncedFile.WriteData(System.IO.Path.Combine(directory, MarkerName), []);
        DirectorySync.Sync(directory);
    }

    /// <summary>Removes the marker, durably: a marker left behind would let a later loss of the data pass as a new store.</summary>
    public static void MarkCreated(string directory)
    {
        File.Delete(System.IO.Path.Combine(directory, MarkerName));
        DirectorySync.Sync(directory);
    }

    public void Dispose()
    {
        _lock.Exit();
        _lock.Dispose();
    }
}

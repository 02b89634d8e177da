using DataStore.Platform;

namespace DataStore.Manifest;

/// <summary>
/// The lock a process holds while it creates a store (manifest, then the engine's files), so another process that
/// finds a manifest without its data file can wait for the creator before calling the store damaged.
/// </summary>
internal sealed class StoreCreationLock : IDisposable
{
    /// <summary>The lock file's name inside the store directory; it holds no data.</summary>
    public const string FileName = "datastore.lock";

    private readonly FileLock _lock;

    private StoreCreationLock(FileLock fileLock) => _lock = fileLock;

    /// <summary>Takes the lock, waiting at most <paramref name="timeout"/> for a creator to finish.</summary>
    /// <exception cref="StoreTimeoutException">Another process held it longer.</exception>
    public static StoreCreationLock Enter(string directory, StoreBackend backend, TimeSpan timeout)
    {
        var fileLock = FileLock.Open(System.IO.Path.Combine(directory, FileName));
        var started = System.Diagnostics.Stopwatch.StartNew();
        try
        {
            while (!fileLock.TryEnter(exclusive: true))
            {
                if (started.Elapsed >= timeout)
                {
                    throw new StoreTimeoutException(directory, backend, started.Elapsed);
                }

                Thread.Sleep(5);
            }
        }
        catch
        {
            fileLock.Dispose();
            throw;
        }

        return new StoreCreationLock(fileLock);
    }

    public void Dispose()
    {
        _lock.Exit();
        _lock.Dispose();
    }
}

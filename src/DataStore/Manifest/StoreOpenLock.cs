using DataStore.Platform;

namespace DataStore.Manifest;

/// <summary>
/// The store's open lock (ADR 0020, <i>The open lock</i>): every process holds it shared, on the file <c>datastore.open</c> in the
/// store directory, from before it reads the manifest until its store is disposed; a maintenance step that needs the store to
/// itself (turning the change feed on or off) takes it exclusively, without waiting long. The operating system drops it when
/// its process dies, so a crash never leaves the store locked.
/// </summary>
/// <remarks>
/// The file holds no data: a new one is created by the first open of a store made before it existed, and one lost to a power
/// loss is created again by the next open (a lock is held only by running processes, which a power loss ended), so it needs no
/// sync. A directory this process cannot write to (a read-only store, another user's store) opens without the lock, as it did
/// before the lock existed. The same lock tells a closing process whether it is the last one to have the store open
/// (<see cref="Release"/>), which takes the change log's restart mark back.
/// </remarks>
internal sealed class StoreOpenLock : IDisposable
{
    /// <summary>The lock file's name inside the store directory.</summary>
    public const string FileName = "datastore.open";

    private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(5);

    private readonly FileLock _lock;
    private readonly string _directory;

    private StoreOpenLock(FileLock fileLock, string directory)
    {
        _lock = fileLock;
        _directory = directory;
    }

    /// <summary>
    /// Takes the lock shared, waiting at most <paramref name="timeout"/> while a maintenance step or a last close (<see cref="Release"/>)
    /// holds it exclusively; null when
    /// the directory does not exist (nothing to open), holds a packed store (read-only data), or this process may not create or
    /// open the lock file there.
    /// </summary>
    /// <exception cref="StoreTimeoutException">A maintenance step or a last close held the store longer than <paramref name="timeout"/>.</exception>
    public static StoreOpenLock? Share(string directory, StoreBackend backend, TimeSpan timeout)
    {
        var fileLock = TryOpen(directory);
        if (fileLock is null)
        {
            return null;
        }

        return fileLock.EnterOrClose(exclusive: false, timeout, Poll) ? new StoreOpenLock(fileLock, directory)
            : throw new StoreTimeoutException(directory, backend, timeout,
                $"a maintenance command (datastore config), or the last close syncing the file system to take back the change log's restart mark, " +
                $"held the store to itself for more than {timeout.TotalSeconds:0.###} s. Retry later, or raise DataStoreOptions.Timeout.");
    }

    /// <summary>Takes the lock exclusively, waiting at most <paramref name="wait"/> for the processes that have the store open.</summary>
    /// <exception cref="DataStoreException">Another process has the store open (<see cref="StoreFailure.Unavailable"/>), or the lock file cannot be opened.</exception>
    public static StoreOpenLock Exclusive(string directory, StoreBackend backend, TimeSpan wait, string purpose)
    {
        FileLock fileLock;
        try
        {
            fileLock = FileLock.Open(System.IO.Path.Combine(directory, FileName));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new DataStoreException(e is UnauthorizedAccessException ? StoreFailure.AccessDenied : StoreFailure.Io, directory, backend,
                $"{purpose} needs the store to itself, but its open lock '{System.IO.Path.Combine(directory, FileName)}' cannot be opened ({e.Message}).", e);
        }

        return fileLock.EnterOrClose(exclusive: true, wait, Poll) ? new StoreOpenLock(fileLock, directory)
            : throw new DataStoreException(StoreFailure.Unavailable, directory, backend,
                $"{purpose} needs the store to itself, but other processes have it open (its open lock '{System.IO.Path.Combine(directory, FileName)}' is held). " +
                "Close the applications and tools that use the store, then run it again.");
    }

    /// <summary>
    /// Lets go of the lock once the store is closed. With <paramref name="whenLast"/>, first tries the lock exclusively without
    /// waiting and, when no other process has the store open, runs it on the store's directory holding the store to itself
    /// (an open that comes meanwhile waits for it). Never throws: a lock that cannot be converted runs nothing.
    /// </summary>
    public void Release(Action<string>? whenLast)
    {
        try
        {
            if (whenLast is not null)
            {
                _lock.Exit(); // flock converts by dropping the shared lock first: Exit makes that explicit
                if (_lock.TryEnter(exclusive: true))
                {
                    whenLast(_directory);
                }
            }
        }
        catch (IOException)
        {
            // The lock could not be taken: another process may have the store open, so nothing is taken back.
        }
        finally
        {
            Dispose();
        }
    }

    public void Dispose()
    {
        _lock.Exit();
        _lock.Dispose();
    }

    private static FileLock? TryOpen(string directory)
    {
        if (!Directory.Exists(directory) || File.Exists(System.IO.Path.Combine(directory, Packed.PackedFormat.FileName)))
        {
            return null; // nothing to open; or a packed store, which never changes (no setting to switch) and is shipped data: no file is made in it
        }

        // Null for a read-only or another user's directory, or no descriptor left: opened as before the lock existed (the engine
        // reports what it cannot do). No exception is thrown for it: with no descriptor left the runtime may fail fast loading one.
        return FileLock.TryOpen(System.IO.Path.Combine(directory, FileName));
    }
}

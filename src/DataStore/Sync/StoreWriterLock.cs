using System.Diagnostics;
using DataStore.Backends;

namespace DataStore.Sync;

/// <summary>
/// A store's single-writer lock: entered within the store's <see cref="DataStoreOptions.Timeout"/>, and refused once
/// the store is disposed.
/// </summary>
/// <remarks>A monitor: the thread that enters it owns it and must be the one to exit it.</remarks>
internal sealed class StoreWriterLock(IBackendMaintenance store, TimeSpan timeout)
{
    private readonly object _monitor = new();

    /// <summary>Enters, waiting up to the timeout; the returned scope exits when disposed.</summary>
    /// <exception cref="StoreTimeoutException">Another writer held the lock for the whole timeout.</exception>
    /// <exception cref="ObjectDisposedException">The store is disposed.</exception>
    public Scope Enter() => Enter(Stopwatch.GetTimestamp());

    /// <summary>
    /// Enters, waiting at most what is left of the timeout of a call that started at <paramref name="started"/>
    /// (<see cref="Stopwatch.GetTimestamp"/>): a write that queued first does not get a whole timeout again here.
    /// </summary>
    /// <exception cref="StoreTimeoutException">The call's timeout ran out before the lock was free.</exception>
    /// <exception cref="ObjectDisposedException">The store is disposed.</exception>
    public Scope Enter(long started)
    {
        var left = timeout - Stopwatch.GetElapsedTime(started);
        if (!Monitor.TryEnter(_monitor, left > TimeSpan.Zero ? left : TimeSpan.Zero))
        {
            throw new StoreTimeoutException(store.Path, store.Backend, timeout);
        }

        try
        {
            store.ThrowIfDisposed();
        }
        catch
        {
            Monitor.Exit(_monitor);
            throw;
        }

        return new Scope(this);
    }

    /// <summary>Enters only if no thread holds the lock, this one included (so never inside a write); waits for nothing.</summary>
    /// <remarks>Call <see cref="Exit"/> after a true return. The caller runs inside a store call, so the store is not disposed meanwhile.</remarks>
    public bool TryEnter() => !Monitor.IsEntered(_monitor) && Monitor.TryEnter(_monitor);

    /// <summary>Enters with no time limit, even once the store is disposed, so closing it waits for a write in progress.</summary>
    public Scope EnterToClose()
    {
        Monitor.Enter(_monitor);
        return new Scope(this);
    }

    /// <summary>Exits the lock this thread entered.</summary>
    public void Exit() => Monitor.Exit(_monitor);

    /// <summary>Holds the lock from <see cref="Enter()"/> or <see cref="EnterToClose"/> until disposed.</summary>
    public readonly struct Scope(StoreWriterLock owner) : IDisposable
    {
        /// <summary>Exits the lock.</summary>
        public void Dispose() => owner.Exit();
    }
}

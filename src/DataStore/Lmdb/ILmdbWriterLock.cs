namespace DataStore.Lmdb;

/// <summary>
/// The cross-process writer lock in front of LMDB's own writer mutex, which waits without a timeout. Taken and
/// released on the same thread, by one thread of a process at a time (the environment's in-process lock is held).
/// </summary>
internal interface ILmdbWriterLock : IDisposable
{
    /// <summary>Takes the lock, waiting at most <paramref name="timeout"/>; false when another process kept it.</summary>
    /// <exception cref="LmdbException">The lock itself failed (an errno value).</exception>
    bool TryTake(TimeSpan timeout);

    /// <summary>Releases the lock taken by this thread.</summary>
    void Release();
}

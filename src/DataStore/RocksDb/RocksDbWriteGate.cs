namespace DataStore.RocksDb;

/// <summary>
/// Orders the store's writes: plain puts, deletes and batches that read nothing enter shared, so they run at once
/// and RocksDB groups them; a write that reads the store first (preconditions, counted or open-ended range deletes)
/// enters exclusive, so nothing is written between its reads and its commit.
/// </summary>
internal sealed class RocksDbWriteGate(string directory, TimeSpan timeout) : IDisposable
{
    private readonly ReaderWriterLockSlim _lock = new(LockRecursionPolicy.NoRecursion);

    /// <summary>Enters, waiting up to the store's timeout; throws <see cref="StoreTimeoutException"/> past it.</summary>
    public void Enter(bool exclusive)
    {
        var entered = exclusive ? _lock.TryEnterWriteLock(timeout) : _lock.TryEnterReadLock(timeout);
        if (!entered)
        {
            throw new StoreTimeoutException(directory, StoreBackend.RocksDb, timeout);
        }
    }

    public void Exit(bool exclusive)
    {
        if (exclusive)
        {
            _lock.ExitWriteLock();
        }
        else
        {
            _lock.ExitReadLock();
        }
    }

    public void Dispose() => _lock.Dispose();
}

namespace DataStore.ChangeFeed;

/// <summary>
/// The part of <see cref="IChangeFeedStore.ReadChanges"/> every backend that reads its own log shares: the read counts as a
/// call of the store, so <c>Dispose</c> waits for it, and one that comes after <c>Dispose</c> began throws
/// <see cref="ObjectDisposedException"/>. Each backend keeps only its engine's read.
/// </summary>
internal static class ChangeLogReads
{
    /// <summary>Runs <paramref name="read"/> as a call of <paramref name="store"/>.</summary>
    /// <exception cref="ObjectDisposedException">The store is disposed.</exception>
    public static ChangeLogPage InCall(KeyValueStoreBase store, Func<ChangeLogPage> read)
    {
        if (!store.TryEnterCall())
        {
            store.ThrowIfDisposed(); // false only once the store is closed
        }

        try
        {
            return read();
        }
        finally
        {
            store.ExitCall();
        }
    }
}

namespace DataStore;

/// <summary>A wait for another writer (thread or process) outlasted the configured timeout.</summary>
public sealed class StoreTimeoutException : DataStoreException
{
    /// <summary>Creates the exception for a wait of <paramref name="waited"/>.</summary>
    public StoreTimeoutException(string storePath, StoreBackend backend, TimeSpan waited, Exception? innerException = null)
        : base(StoreFailure.Timeout, storePath, backend,
            $"the store stayed locked by another writer for {waited.TotalSeconds:0.###} s, longer than the configured timeout. " +
            "Retry later, or raise DataStoreOptions.Timeout.", innerException)
    {
        Waited = waited;
    }

    /// <summary>Creates the exception for a wait of <paramref name="waited"/> whose <paramref name="detail"/> says what held the store and what to do.</summary>
    public StoreTimeoutException(string storePath, StoreBackend backend, TimeSpan waited, string detail, Exception? innerException = null)
        : base(StoreFailure.Timeout, storePath, backend, detail, innerException)
    {
        Waited = waited;
    }

    /// <summary>How long the operation waited.</summary>
    public TimeSpan Waited { get; }
}

namespace DataStore;

/// <summary>A store that cannot be used as asked: names the store path, the backend and the cause.</summary>
public class DataStoreException : Exception
{
    /// <summary>Creates an exception whose message starts with the backend and path.</summary>
    public DataStoreException(StoreFailure failure, string storePath, StoreBackend backend, string detail, Exception? innerException = null)
        : base($"{backend} store at '{storePath}': {detail}", innerException)
    {
        Cause = failure;
        StorePath = storePath;
        Backend = backend;
    }

    /// <summary>Why the operation failed.</summary>
    public StoreFailure Cause { get; }

    /// <summary>The store's directory.</summary>
    public string StorePath { get; }

    /// <summary>The backend that failed.</summary>
    public StoreBackend Backend { get; }
}

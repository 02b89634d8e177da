namespace DataStore;

/// <summary>The directory holds something this backend and version cannot open: another backend's store, a newer format, or damaged files.</summary>
public sealed class StoreFormatException : DataStoreException
{
    /// <summary>Creates the exception.</summary>
    public StoreFormatException(StoreFailure failure, string storePath, StoreBackend backend, string detail, Exception? innerException = null)
        : base(failure, storePath, backend, detail, innerException)
    {
    }
}

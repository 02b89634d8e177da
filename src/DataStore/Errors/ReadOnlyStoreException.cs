namespace DataStore;

/// <summary>A write was asked of a read-only store (a <see cref="StoreBackend.Packed"/> store): nothing was written.</summary>
public sealed class ReadOnlyStoreException : NotSupportedException
{
    /// <summary>Creates an exception whose message starts with the backend and path.</summary>
    public ReadOnlyStoreException(string storePath, StoreBackend backend, string detail)
        : base($"{backend} store at '{storePath}': {detail}")
    {
        StorePath = storePath;
        Backend = backend;
    }

    /// <summary>The store's directory.</summary>
    public string StorePath { get; }

    /// <summary>The store's backend.</summary>
    public StoreBackend Backend { get; }
}

namespace DataStore;

/// <summary>A dump cannot be imported: it is damaged, truncated, not a dump at all, or written by a newer DataStore.</summary>
/// <remarks><see cref="DataStoreException.StorePath"/> and <see cref="DataStoreException.Backend"/> name the store the dump was being imported into.</remarks>
public sealed class DumpFormatException : DataStoreException
{
    /// <summary>Creates the exception for a problem found at byte <paramref name="offset"/> of the dump.</summary>
    public DumpFormatException(StoreFailure failure, string storePath, StoreBackend backend, long offset, string detail, Exception? innerException = null)
        : base(failure, storePath, backend, detail, innerException)
    {
        Offset = offset;
        Detail = detail;
    }

    /// <summary>The byte offset in the dump where the problem was found.</summary>
    public long Offset { get; }

    /// <summary>The message without the store prefix, so a note can be added.</summary>
    internal string Detail { get; }

    /// <summary>The same problem with <paramref name="note"/> appended to the message.</summary>
    internal DumpFormatException WithNote(string note) => new(Cause, StorePath, Backend, Offset, $"{Detail} {note}", this);
}

namespace DataStore;

/// <summary>A batch precondition did not hold, so nothing of the batch was written.</summary>
public sealed class PreconditionFailedException : DataStoreException
{
    /// <summary>Creates the exception for <paramref name="failure"/>.</summary>
    public PreconditionFailedException(string storePath, StoreBackend backend, PreconditionFailure failure)
        : base(StoreFailure.PreconditionFailed, storePath, backend, $"{failure}; nothing of the batch was written.")
    {
        Failure = failure;
    }

    /// <summary>The precondition that failed.</summary>
    public PreconditionFailure Failure { get; }
}

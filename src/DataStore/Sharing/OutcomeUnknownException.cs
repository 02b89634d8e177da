namespace DataStore;

/// <summary>
/// The process that owned the store went away, or was stopped (SIGSTOP, Ctrl+Z, a debugger) for longer than the store's
/// timeout, while it was applying this write, so whether the write was applied is unknown; it was applied at most once
/// (a stopped owner may still apply it when it continues). Read the key to find out before writing it again.
/// </summary>
public sealed class OutcomeUnknownException : DataStoreException
{
    /// <summary>Creates the exception for a write sent to the owner process <paramref name="ownerProcessId"/>.</summary>
    public OutcomeUnknownException(string storePath, StoreBackend backend, int ownerProcessId, Exception? innerException = null)
        : base(StoreFailure.OutcomeUnknown, storePath, backend,
            $"the owner process {ownerProcessId} went away or stopped answering before it answered this write, so the write was applied once or not at all. " +
            "Read the keys it touches before writing them again.", innerException)
    {
        OwnerProcessId = ownerProcessId;
    }

    /// <summary>The owner process that received the write.</summary>
    public int OwnerProcessId { get; }
}

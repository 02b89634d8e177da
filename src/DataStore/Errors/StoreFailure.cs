namespace DataStore;

/// <summary>Why a store operation failed.</summary>
public enum StoreFailure
{
    /// <summary>The engine reported an error not listed here; the message carries its text.</summary>
    Engine,

    /// <summary>A wait for a lock held by another thread or process outlasted the configured timeout.</summary>
    Timeout,

    /// <summary>The directory holds a store of another backend.</summary>
    WrongBackend,

    /// <summary>The store was written by a newer DataStore format version.</summary>
    NewerFormat,

    /// <summary>The store's files are damaged or not a store at all.</summary>
    Corrupt,

    /// <summary>The operating system refused access to the store's files.</summary>
    AccessDenied,

    /// <summary>The disk is full.</summary>
    DiskFull,

    /// <summary>Reading or writing the store's files failed.</summary>
    Io,

    /// <summary>A batch precondition did not hold, so the batch wrote nothing.</summary>
    PreconditionFailed,

    /// <summary>This backend cannot be used in this build or on this machine.</summary>
    Unavailable,

    /// <summary>The process that owned the store went away during a write, which was applied once or not at all (<see cref="OutcomeUnknownException"/>).</summary>
    OutcomeUnknown,

    /// <summary>The process that owned the store went away during a scan; another process owns it now, and the scan can be started again.</summary>
    OwnerChanged,
}

namespace DataStore.Writes;

/// <summary>What one caller's <see cref="QueuedWrite{TErrors}"/> does.</summary>
internal enum WriteKind
{
    /// <summary>Puts the value (<see cref="QueuedWrite{TErrors}.Second"/>) under the key (<see cref="QueuedWrite{TErrors}.First"/>).</summary>
    Put,

    /// <summary>Deletes the key.</summary>
    Delete,

    /// <summary>Deletes every key in [First, Second) (an empty bound is open); the result is how many went.</summary>
    DeleteRange,

    /// <summary>Commits the batch if its preconditions hold; the result is -1 or the failed precondition's index.</summary>
    Batch,

    /// <summary>Prunes the change log to the retention in the second span (a 32-bit count); logs nothing (Lmdb's feed).</summary>
    PruneFeed,

    /// <summary>Appends one empty change-log record numbered the second span's gap (a 64-bit count) past the latest; logs nothing else (Lmdb's feed).</summary>
    RestartFeed,
}

namespace DataStore.Writes;

/// <summary>What a backend's error translator tells the write queue: how long a caller waits, and what it gets when that runs out.</summary>
internal interface IWriteErrors
{
    /// <summary>How long a write waits for the writer, in this process and across processes.</summary>
    TimeSpan Timeout { get; }

    /// <summary>The error of a write that waited for the writer past <see cref="Timeout"/>.</summary>
    StoreTimeoutException TimedOut();
}

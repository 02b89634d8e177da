namespace DataStore.ChangeFeed;

/// <summary>
/// The per-backend part of the change feed, what the shared reader and pruner need: each backend writes one record per
/// commit in the commit's own transaction (its writer calls its log's append), and implements these reads over it.
/// </summary>
/// <remarks>Called from any thread; the backend's store counts each call as a store call, so Dispose waits for it.</remarks>
internal interface IChangeLog : IDisposable
{
    /// <summary>Up to <paramref name="max"/> records after sequence <paramref name="after"/>, ascending, and the latest sequence, from one snapshot.</summary>
    ChangeLogPage Read(long after, int max);

    /// <summary>Removes every record but the latest <paramref name="retain"/> (at least one is always kept, so the sequence survives restarts).</summary>
    void Prune(int retain);

    /// <summary>
    /// Appends one empty record numbered <paramref name="gap"/> past the latest, in one write transaction under the backend's
    /// write lock, and syncs it before returning, whatever the store's durability (<see cref="ChangeLogRestart"/>).
    /// </summary>
    void AppendRestart(long gap);
}

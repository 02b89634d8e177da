namespace DataStore.Writes;

/// <summary>
/// A backend's part of combined writes (<see cref="CombinedWriter{TErrors}"/>): taking the writer, and running some
/// callers' writes in one engine transaction and one commit. The loop around it (who leads, which callers share a
/// transaction, rerunning each alone after a failure, each caller's outcome) is the combined writer's, the same for
/// every backend. Called only by the leading caller's thread, which holds the writer between <see cref="Enter"/> and
/// <see cref="Exit"/>.
/// </summary>
internal interface IWriteGroupRunner<TErrors>
    where TErrors : class, IWriteErrors
{
    /// <summary>
    /// Takes the writer: the process's writer lock, then the engine's across processes, waiting for other processes'
    /// writers at most the leader's timeout (its caller started at the Stopwatch timestamp <paramref name="started"/>).
    /// Callers that queue meanwhile join the leader's group.
    /// </summary>
    /// <exception cref="Exception">The writer was not free in time (<see cref="StoreTimeoutException"/>) or the store is closed; nothing is held then.</exception>
    void Enter(QueuedWrite<TErrors> leader, long started);

    /// <summary>Lets the writer go (after <see cref="Enter"/> returned).</summary>
    void Exit();

    /// <summary>
    /// Holding the writer: runs writes [<paramref name="start"/>, <paramref name="start"/> + <paramref name="count"/>) of
    /// <paramref name="group"/> in order in one transaction, each with its own change-log record when the feed is on,
    /// sets each write's <see cref="QueuedWrite{TErrors}.Result"/>, and commits. Returns the commit's ticket for the group
    /// sync, or 0 when no write changed anything (nothing committed).
    /// </summary>
    /// <exception cref="Exception">The transaction failed; it was rolled back, nothing of it committed.</exception>
    long Commit(List<QueuedWrite<TErrors>> group, int start, int count);

    /// <summary>
    /// Called by the leader once it has let the writer go, still leading, with its group's latest ticket: a Durable store
    /// waits here for the group sync that covers it, so that the group's callers find their commit synced and are woken
    /// once, not a second time by the sync, and the callers who come meanwhile wait for the next leader's one transaction.
    /// Best effort: an exception is ignored (each caller's own wait for its ticket reports it). Does nothing unless the
    /// backend says otherwise.
    /// </summary>
    void WaitForSync(long ticket)
    {
    }
}

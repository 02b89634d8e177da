namespace DataStore.ChangeFeed.FileSystem;

/// <summary>
/// The FileSystem part of the change feed, as the shared reader and pruner see it: reads of <see cref="ChangeLogFiles"/>
/// (the store runs them under its shared lock, completing a dead writer's change first) and prunes under its write lock.
/// The records themselves are appended by the store's writer, in a single Put's commit or in its journal's (ADR 0020).
/// </summary>
internal sealed class FileSystemChangeLog(ChangeLogFiles files, int retention, Action<Action> underWriteLock) : IChangeLog
{
    /// <summary>The log's files.</summary>
    public ChangeLogFiles Files => files;

    /// <summary>Reads the log; call holding the store's shared lock with no change in progress.</summary>
    public ChangeLogPage Read(long after, int max) => files.Read(after, max, retention);

    /// <summary>Reads every retained record up to the latest, with the latest; call holding the store's shared lock.</summary>
    public ChangeLogPage ReadAll() => files.Read(0, int.MaxValue, retention);

    public void Prune(int retain) => underWriteLock(() => files.Prune(retain));

    /// <summary>Not used: a FileSystem log restarts within its own recovery, which also completes the data (<see cref="ChangeLogFiles.Restart"/>).</summary>
    public void AppendRestart(long gap) => throw new NotSupportedException("A FileSystem change log restarts in its recovery (ChangeLogFiles.Restart).");

    public void Dispose()
    {
        // Nothing stays open between calls: each read and append opens its segment.
    }
}

namespace DataStore.ChangeFeed;

/// <summary>
/// A store whose change log is restarted after a power loss (<see cref="ChangeLogRestart"/>): what it tells the layer that
/// holds its open lock, once it is closed, so the last clean close takes the restart mark back (<see cref="ChangeLogMarkTakeBack"/>).
/// </summary>
internal interface IRestartMarkedStore
{
    /// <summary>True once the store's change feed started (it read, and may have written, the mark): its close may take the mark back.</summary>
    bool MarksRestart { get; }

    /// <summary>
    /// Read after the store's <c>Dispose(bool)</c> returned: true when that close wrote every commit of this process to the
    /// store's files; false when it caught a failure of its own (the mark then stays). A close that throws takes nothing back.
    /// </summary>
    bool ClosedCleanly { get; }
}

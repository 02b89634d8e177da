namespace DataStore.ChangeFeed;

/// <summary>A store whose backend has a change-log part: the explicit contract between the feed and a backend (ADR 0020).</summary>
internal interface IChangeFeedStore
{
    /// <summary>True once <see cref="StartChangeFeed"/> ran: every commit writes a change-log record.</summary>
    bool ChangeFeedOn { get; }

    /// <summary>Starts logging every commit; called once, when the store opens, before any write, when the manifest turns the feed on.</summary>
    void StartChangeFeed(ChangeFeedSettings settings, Microsoft.Extensions.Logging.ILogger logger);

    /// <summary>Reads the change log as <see cref="IChangeLog.Read"/>, counted as a store call.</summary>
    /// <exception cref="ObjectDisposedException">The store is disposed.</exception>
    ChangeLogPage ReadChanges(long after, int max);
}

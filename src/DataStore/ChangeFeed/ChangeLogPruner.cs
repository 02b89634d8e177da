using Microsoft.Extensions.Logging;

namespace DataStore.ChangeFeed;

/// <summary>
/// Prunes a change log to its retention on a timer thread, and once more when the store closes, when this process committed
/// since the last prune (a process that only reads or watches leaves it to the writers, and stays idle). A failure (another
/// process holding the write lock past the timeout, a disk error) is logged and retried next time: no exception leaves the timer.
/// </summary>
internal sealed class ChangeLogPruner : IDisposable
{
    /// <summary>How often the log is pruned.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(2);

    private readonly IChangeLog _log;
    private readonly int _retain;
    private readonly string _directory;
    private readonly ILogger _logger;
    private readonly Sync.BackgroundSync _timer;
    private int _written;

    public ChangeLogPruner(IChangeLog log, int retain, string directory, ILogger logger)
    {
        _log = log;
        _retain = retain;
        _directory = directory;
        _logger = logger;
        _timer = new Sync.BackgroundSync(Interval, PruneNow);
    }

    /// <summary>Notes that this process committed, so the next round prunes.</summary>
    public void Written() => Volatile.Write(ref _written, 1);

    /// <summary>Prunes now if this process committed since the last prune; never throws.</summary>
    public void PruneNow()
    {
        if (Interlocked.Exchange(ref _written, 0) == 0)
        {
            return;
        }

        try
        {
            _log.Prune(_retain);
        }
        catch (Exception e)
        {
            Written(); // retried next round
            ChangeFeedLog.PruneFailed(_logger, e, _directory);
        }
    }

    /// <summary>Stops the timer, waits for a prune in progress, and prunes a last time.</summary>
    public void Dispose()
    {
        _timer.Dispose();
        PruneNow();
    }
}

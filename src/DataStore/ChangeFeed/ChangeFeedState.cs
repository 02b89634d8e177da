using Microsoft.Extensions.Logging;

namespace DataStore.ChangeFeed;

/// <summary>What an open store with the feed on keeps beside its log: the wake-up signal its commits write and the pruner.</summary>
/// <remarks>The backend owns the log itself (its writer appends to it); this disposes the pruner and the signal only.</remarks>
internal sealed class ChangeFeedState : IDisposable
{
    private readonly ChangeSignal _signal;
    private readonly ChangeLogPruner _pruner;

    private ChangeFeedState(IChangeLog log, ChangeSignal signal, ChangeLogPruner pruner)
    {
        Log = log;
        _signal = signal;
        _pruner = pruner;
    }

    /// <summary>The backend's change log.</summary>
    public IChangeLog Log { get; }

    /// <summary>Opens the signal file and starts pruning <paramref name="log"/> to the manifest's retention.</summary>
    public static ChangeFeedState Start(IChangeLog log, string directory, ChangeFeedSettings settings, ILogger logger)
    {
        var signal = new ChangeSignal(directory, logger);
        return new ChangeFeedState(log, signal, new ChangeLogPruner(log, settings.Retention, directory, logger));
    }

    /// <summary>Wakes the subscribers of every process; call after a commit, outside the write lock.</summary>
    public void Committed()
    {
        _signal.Notify();
        _pruner.Written();
    }

    /// <summary>
    /// Stops pruning (after a last prune) and closes the signal file, waking subscribers a last time so that those of this
    /// store learn at once that it is closed; call before the log is disposed.
    /// </summary>
    public void Dispose()
    {
        _pruner.Dispose();
        _signal.Notify();
        _signal.Dispose();
    }
}

namespace DataStore.ChangeFeed;

/// <summary>
/// The subscriber's half of the wake-up: a <see cref="FileSystemWatcher"/> on the signal file. Created before the
/// subscriber's first read, so a commit between a read and the next wait still wakes it. An idle subscriber waits on the
/// operating system's notification and a rare safety read (<see cref="SafetyPoll"/>), which covers the one signal that can
/// go missing unreported: a writer that dies between its commit and its signal (a commit nobody was told had succeeded).
/// A full notification queue is reported (<see cref="FileSystemWatcher.Error"/>) and wakes the subscriber at once.
/// </summary>
internal sealed class ChangeWakeup : IDisposable
{
    /// <summary>
    /// How long a subscriber waits without a notification before it reads the log anyway: long, so that an idle subscriber
    /// (through an owner, each read is a request) uses no measurable CPU (ADR 0020, <i>Wake-ups</i>).
    /// </summary>
    public static readonly TimeSpan SafetyPoll = TimeSpan.FromMinutes(5);

    private readonly SemaphoreSlim _signalled = new(0, 1);
    private readonly FileSystemWatcher _watcher;

    public ChangeWakeup(string directory)
    {
        var file = ChangeSignal.PathIn(directory);
        _watcher = new FileSystemWatcher(System.IO.Path.GetDirectoryName(file)!, ChangeSignal.FileName)
        {
            NotifyFilter = NotifyFilters.LastWrite | NotifyFilters.Size,
        };
        _watcher.Changed += (_, _) => Signal();
        _watcher.Error += (_, _) => Signal();
        _watcher.EnableRaisingEvents = true;
    }

    /// <summary>Waits for a notification, at most <see cref="SafetyPoll"/>.</summary>
    public Task WaitAsync(CancellationToken cancellationToken) => _signalled.WaitAsync(SafetyPoll, cancellationToken);

    public void Dispose()
    {
        _watcher.Dispose();
        _signalled.Dispose();
    }

    private void Signal()
    {
        try
        {
            if (_signalled.CurrentCount == 0)
            {
                _signalled.Release();
            }
        }
        catch (Exception e) when (e is SemaphoreFullException or ObjectDisposedException)
        {
            // Already signalled, or the subscription ended while the watcher's thread delivered this event.
        }
    }
}

namespace DataStore.Sync;

/// <summary>
/// The background sync of a Relaxed store: runs the store's sync every <see cref="DataStoreOptions.SyncInterval"/>
/// on a timer thread, so writes never wait for it.
/// </summary>
internal sealed class BackgroundSync : IDisposable
{
    private readonly Timer _timer;

    /// <summary>Starts running <paramref name="sync"/> every <paramref name="interval"/>.</summary>
    public BackgroundSync(TimeSpan interval, Action sync)
    {
        _timer = new Timer(_ => sync(), null, interval, interval);
    }

    /// <summary>Starts the background sync for a Relaxed store; null for a Durable one, whose writes sync as they commit.</summary>
    public static BackgroundSync? StartIfRelaxed(Durability durability, TimeSpan interval, Action sync) =>
        durability == Durability.Relaxed ? new BackgroundSync(interval, sync) : null;

    /// <summary>Stops the timer and waits for a sync in progress.</summary>
    public void Dispose()
    {
        using var stopped = new ManualResetEvent(false);
        if (_timer.Dispose(stopped))
        {
            stopped.WaitOne();
        }
    }
}

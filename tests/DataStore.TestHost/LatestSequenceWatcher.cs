using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// A subscriber that reads the store's latest change-feed sequence over and over on a thread of its own and reports each
/// new one (<c>S n</c>) as soon as it sees it: a commit is visible from the moment this sees it, acknowledged or not.
/// </summary>
internal sealed class LatestSequenceWatcher : IDisposable
{
    private readonly Thread _thread;
    private volatile bool _stopping;

    public LatestSequenceWatcher(IKeyValueStore store, Action<string> report)
    {
        _thread = new Thread(() => Watch(store, report)) { IsBackground = true, Name = "latest sequence watcher" };
        _thread.Start();
    }

    public void Dispose()
    {
        _stopping = true;
        _thread.Join();
    }

    private void Watch(IKeyValueStore store, Action<string> report)
    {
        var seen = 0L;
        while (!_stopping)
        {
            var latest = store.ChangeSequence();
            if (latest > seen)
            {
                seen = latest;
                report($"S {latest}");
            }

            Thread.Yield();
        }
    }
}

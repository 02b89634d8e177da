using System.Diagnostics;
using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// A subscriber that reads the store's latest change-feed sequence over and over on a thread of its own and reports each
/// new one (<c>S n t</c>) with the moment it had seen it by (<c>t</c>, <see cref="Stopwatch.GetTimestamp"/>: on Linux
/// CLOCK_MONOTONIC in nanoseconds, the power-loss shim's clock): the commit was visible then, acknowledged or not. The time,
/// not the line's place in the shim's log, says when: the shim writes a line only after a sync in progress has returned.
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
                report($"S {latest} {Stopwatch.GetTimestamp()}");
            }

            Thread.Yield();
        }
    }
}

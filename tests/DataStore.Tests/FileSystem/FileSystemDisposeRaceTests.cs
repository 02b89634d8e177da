using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// Dispose while four threads do Get, HaveKey, Put and short scans (an app shutting down with a background task
/// still running): each racing call completes or throws <see cref="ObjectDisposedException"/>; nothing is freed
/// under a call (issue 23 item 9; before, the process died of an AccessViolationException in the shared state).
/// </summary>
public sealed class FileSystemDisposeRaceTests : IDisposable
{
    private const int Rounds = 40;
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Calls_racing_Dispose_complete_or_throw_ObjectDisposedException()
    {
        var path = _directory.Sub("store");
        using (var seed = FileSystemTestStore.Open(path))
        {
            for (var i = 0; i < 200; i++)
            {
                seed.Put(Bytes.Utf8($"k/{i:D4}"), Bytes.Utf8($"v{i}"));
            }
        }

        var unexpected = new List<Exception>();
        var disposedSeen = 0;
        for (var round = 0; round < Rounds; round++)
        {
            var store = FileSystemTestStore.Open(path);
            using var started = new CountdownEvent(4);
            var workers = Enumerable.Range(0, 4).Select(kind => new Thread(() =>
            {
                var random = new Random((round * 4) + kind);
                started.Signal();
                try
                {
                    while (true)
                    {
                        var key = Bytes.Utf8($"k/{random.Next(200):D4}");
                        switch (kind)
                        {
                            case 0:
                                store.Get(key);
                                break;
                            case 1:
                                store.HaveKey(key);
                                break;
                            case 2:
                                store.Put(key, Bytes.Utf8($"w{round}"));
                                break;
                            default:
                                StoreAssert.Scan(store, Bytes.Utf8($"k/01{random.Next(10)}"));
                                break;
                        }
                    }
                }
                catch (ObjectDisposedException)
                {
                    Interlocked.Increment(ref disposedSeen);
                }
                catch (Exception e)
                {
                    lock (unexpected)
                    {
                        unexpected.Add(e);
                    }
                }
            })).ToList();
            workers.ForEach(w => w.Start());
            started.Wait(TestContext.Current.CancellationToken);
            Thread.Sleep(round % 5);
            store.Dispose();
            workers.ForEach(w => Assert.True(w.Join(TimeSpan.FromSeconds(60)), "a call racing Dispose never returned"));
        }

        Assert.True(unexpected.Count == 0, string.Join("\n\n", unexpected.Take(3)));
        Assert.Equal(4 * Rounds, disposedSeen);
        using var reopened = FileSystemTestStore.Open(path);
        Assert.Equal(200, StoreAssert.Scan(reopened, "k/"u8.ToArray()).Count);
    }

    public void Dispose() => _directory.Dispose();
}

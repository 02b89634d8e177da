namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 12: Dispose while other threads are mid-call (an app shutting down with a background task still running).
/// Every racing call completes or throws <see cref="ObjectDisposedException"/>; nothing is freed under a running call,
/// so the process never crashes; concurrent Disposes are safe.
/// </summary>
public abstract class DisposeRaceContract : StoreContract
{
    private const int Rounds = 25;
    private const int Workers = 4;

    [Fact]
    public async Task Calls_racing_Dispose_complete_or_throw_ObjectDisposedException()
    {
        for (var round = 0; round < Rounds; round++)
        {
            var store = KeyValueStore.Open(Options(Directory.Sub($"race-{round}")));
            for (var i = 0; i < 64; i++)
            {
                store.Put([(byte)i], [(byte)i]);
            }

            using var started = new CountdownEvent(Workers);
            var workers = Enumerable.Range(0, Workers)
                .Select(worker => Task.Factory.StartNew(() => Hammer(store, worker, started), TestContext.Current.CancellationToken, TaskCreationOptions.LongRunning, TaskScheduler.Default))
                .ToArray();
            started.Wait(TestContext.Current.CancellationToken);
            Thread.Sleep(round % 5);

            // Two threads dispose at once: both return, the store is released once.
            var disposers = new[] { Task.Run(store.Dispose, TestContext.Current.CancellationToken), Task.Run(store.Dispose, TestContext.Current.CancellationToken) };
            await Task.WhenAll(disposers).WaitAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken);

            foreach (var worker in workers)
            {
                var failure = await Record.ExceptionAsync(() => worker.WaitAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken));
                Assert.True(failure is ObjectDisposedException, $"{Backend}, round {round}: a call racing Dispose ended with {failure}");
            }
        }

        // Everything was released: a new instance opens the directory and finds the data.
        if ((CapabilitiesOf(Backend) & StoreCapabilities.Persistent) != 0)
        {
            using var reopened = KeyValueStore.Open(Options(Directory.Sub("race-0")));
            StoreAssert.Holds(reopened, [1], [1]);
        }
    }

    // Runs until a call throws; the store's Dispose makes one throw ObjectDisposedException.
    private static void Hammer(IKeyValueStore store, int worker, CountdownEvent started)
    {
        var buffer = new byte[16];
        started.Signal();
        for (var i = 0; ; i++)
        {
            switch ((i + worker) % 4)
            {
                case 0:
                    store.Get([(byte)(i % 64)], buffer);
                    break;
                case 1:
                    store.HaveKey([(byte)(i % 64)]);
                    break;
                case 2:
                    store.Put([(byte)(i % 64), (byte)worker], BitConverter.GetBytes(i));
                    break;
                default:
                    using (var cursor = store.ScanPrefix([(byte)(i % 64)]))
                    {
                        while (cursor.MoveNext())
                        {
                            _ = cursor.Key.Length + cursor.Value.Length;
                        }
                    }

                    break;
            }
        }
    }
}

namespace DataStore.Tests.Lmdb;

/// <summary>Disposing a store while other threads still call it (a misuse) gives those calls ObjectDisposedException, never a crash.</summary>
public sealed class LmdbDisposeRaceTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Threads_still_reading_and_writing_when_the_store_is_disposed_get_ObjectDisposedException()
    {
        for (var round = 0; round < 20; round++)
        {
            var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub($"store-{round}"), Backend = StoreBackend.Lmdb });
            store.Put("k"u8, "v"u8);
            using var started = new CountdownEvent(4);
            var workers = Enumerable.Range(0, 4).Select(worker => Task.Run(() => Hammer(store, worker, started), TestContext.Current.CancellationToken)).ToArray();
            started.Wait(TestContext.Current.CancellationToken);
            store.Dispose();

            foreach (var worker in workers)
            {
                var failure = await Record.ExceptionAsync(() => worker.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken));
                Assert.True(failure is ObjectDisposedException, $"round {round}: a call on the disposed store ended with {failure}");
            }
        }
    }

    public void Dispose() => _directory.Dispose();

    private static void Hammer(IKeyValueStore store, int worker, CountdownEvent started)
    {
        var buffer = new byte[16];
        started.Signal();
        for (var i = 0; ; i++)
        {
            switch ((i + worker) % 4)
            {
                case 0:
                    store.Get("k"u8, buffer);
                    break;
                case 1:
                    store.HaveKey("k"u8);
                    break;
                case 2:
                    store.Put([(byte)worker, (byte)i], "v"u8);
                    break;
                default:
                    using (var cursor = store.ScanPrefix([]))
                    {
                        while (cursor.MoveNext())
                        {
                        }
                    }

                    break;
            }
        }
    }
}

namespace DataStore.Tests.Conformance;

/// <summary>Rule 7: one open store is used from many threads at once without outside locking.</summary>
public abstract class ThreadsContract : StoreContract
{
    [Fact]
    public void Many_threads_writing_and_reading_their_own_keys_lose_nothing()
    {
        var store = Open();
        const int threads = 8, keysPerThread = 300;

        Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, t =>
        {
            for (var i = 0; i < keysPerThread; i++)
            {
                byte[] key = [(byte)t, (byte)(i >> 8), (byte)i];
                if (i % 3 == 0)
                {
                    store.Write(new WriteBatch().Put(key, key).Put([.. key, 0], key));
                }
                else
                {
                    store.Put(key, key);
                }

                StoreAssert.Holds(store, key, key);
                if (i % 50 == 0)
                {
                    var own = StoreAssert.Scan(store, [(byte)t], keysOnly: true);
                    StoreAssert.Ascending(own);
                    Assert.True(own.Count >= i + 1);
                }
            }

            store.Delete([(byte)t, 0, 0]);
        });

        for (var t = 0; t < threads; t++)
        {
            var own = StoreAssert.Scan(store, [(byte)t]);
            Assert.Equal(keysPerThread + (keysPerThread / 3) - 1, own.Count);
            Assert.All(own, p => Assert.Equal(p.Key[..3], p.Value));
        }
    }

    [Fact]
    public async Task Readers_and_a_prefix_deleter_can_run_at_the_same_time()
    {
        var store = Open();
        for (var i = 0; i < 500; i++)
        {
            store.Put([2, (byte)(i >> 8), (byte)i], [1]);
        }

        using var done = new CancellationTokenSource();
        var readers = Enumerable.Range(0, 3).Select(_ => Task.Run(() =>
        {
            while (!done.IsCancellationRequested)
            {
                StoreAssert.Ascending(StoreAssert.Scan(store, [2]));
                store.HaveKey([2, 0, 1]);
            }
        }, TestContext.Current.CancellationToken)).ToArray();

        for (var round = 0; round < 20; round++)
        {
            store.DeletePrefix([2]);
            var batch = new WriteBatch();
            for (var i = 0; i < 100; i++)
            {
                batch.Put([2, 0, (byte)i], [1]);
            }

            store.Write(batch);
        }

        done.Cancel();
        await Task.WhenAll(readers);
        Assert.Equal(100, StoreAssert.Scan(store, [2]).Count);
    }
}

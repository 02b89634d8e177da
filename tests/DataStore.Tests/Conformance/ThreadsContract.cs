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

    [Fact]
    public async Task Compare_and_swap_beside_plain_puts_of_the_same_key_loses_no_increment_and_never_goes_back()
    {
        // The counter is (epoch, count): compare-and-swap writers add one to count; a plain writer starts a new epoch with
        // a plain Put. A plain Put landing between a compare-and-swap's check and its commit would bring an old epoch back
        // after the Put returned, and two swaps racing on one value would lose an increment.
        var store = Open();
        byte[] key = [7, 7];
        store.Put(key, Counter(0, 0));
        var committedEpoch = new long[1];
        var swapped = new System.Collections.Concurrent.ConcurrentDictionary<long, int>();
        var deadline = Environment.TickCount64 + 1_500;
        using var swapping = new CancellationTokenSource();
        var writer = Task.Run(() =>
        {
            for (var epoch = 1L; !swapping.IsCancellationRequested; epoch++)
            {
                store.Put(key, Counter(epoch, 0));
                Volatile.Write(ref committedEpoch[0], epoch);
                store.Put([7, 8, (byte)epoch], [1]); // plain puts of other keys between the epochs
                Thread.Yield();
            }
        }, TestContext.Current.CancellationToken);
        var swappers = Enumerable.Range(0, 4).Select(_ => Task.Run(() =>
        {
            for (var i = 0; i < 400 && Environment.TickCount64 < deadline; i++)
            {
                var floor = Volatile.Read(ref committedEpoch[0]);
                var current = store.Get(key)!;
                var (epoch, count) = (BitConverter.ToInt64(current), BitConverter.ToInt64(current, 8));
                Assert.True(epoch >= floor, $"{Backend}: epoch {epoch} read after epoch {floor} was put: a compare-and-swap overwrote a newer plain Put");
                if (store.TryWrite(new WriteBatch().RequireValue(key, current).Put(key, Counter(epoch, count + 1)), out PreconditionFailure? _))
                {
                    swapped.AddOrUpdate(epoch, 1, (_, n) => n + 1);
                }
            }
        }, TestContext.Current.CancellationToken)).ToArray();

        await Task.WhenAll(swappers);
        await swapping.CancelAsync();
        await writer;
        var last = store.Get(key)!;
        var lastEpoch = BitConverter.ToInt64(last);
        Assert.Equal(Volatile.Read(ref committedEpoch[0]), lastEpoch);
        Assert.Equal(swapped.GetValueOrDefault(lastEpoch), BitConverter.ToInt64(last, 8));
    }

    private static byte[] Counter(long epoch, long count) => [.. BitConverter.GetBytes(epoch), .. BitConverter.GetBytes(count)];
}

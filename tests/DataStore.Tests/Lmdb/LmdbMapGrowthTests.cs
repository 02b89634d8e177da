using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>The map grows by itself: from 1 MiB under a load, under an open scan on the writing thread, and across two processes.</summary>
public sealed class LmdbMapGrowthTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    /// <summary>
    /// CI loads 24 MiB; the soak loads more: <c>DATASTORE_LMDB_SOAK_MB=200 dotnet test --project tests/DataStore.Tests -c Release
    /// --filter-method '*A_map_that_starts_at_1_MiB_grows_under_a_load*'</c>.
    /// </summary>
    [Fact]
    public void A_map_that_starts_at_1_MiB_grows_under_a_load_and_loses_nothing()
    {
        var megabytes = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_LMDB_SOAK_MB"), CultureInfo.InvariantCulture, out var soak) ? soak : 24;
        using var store = LmdbTestStores.OpenSmall(StorePath);
        Assert.Equal(LmdbTestStores.OneMebibyte, store.MapSize);

        const int valueSize = 64 << 10;
        var values = megabytes * 16;
        var batch = new WriteBatch();
        for (var i = 0; i < values; i++)
        {
            if (i % 3 == 0)
            {
                store.Put(Key(i), LmdbTestStores.Filled(valueSize, i));
                continue;
            }

            batch.Put(Key(i), LmdbTestStores.Filled(valueSize, i));
            if (batch.Count == 8)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        store.Write(batch);
        Assert.True(store.MapSize >= (long)megabytes << 20, $"the map is {store.MapSize} bytes after loading {megabytes} MiB");
        Assert.Equal(values, StoreAssert.Scan(store, "load/"u8.ToArray(), keysOnly: true).Count);
        var buffer = new byte[valueSize];
        for (var i = 0; i < values; i++)
        {
            Assert.Equal(valueSize, store.Get(Key(i), buffer));
            Assert.True(buffer[0] == (byte)i && buffer[^1] == (byte)i, $"value {i} is wrong");
        }
    }

    [Fact]
    public async Task A_thread_holding_a_scan_open_can_write_past_the_map_without_deadlocking()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath);
        for (byte i = 0; i < 10; i++)
        {
            store.Put([1, i], [i]);
        }

        var grew = Task.Run(() =>
        {
            using var cursor = store.ScanPrefix([1]);
            Assert.True(cursor.MoveNext());
            var mapBefore = store.MapSize;

            store.Put([2], new byte[8 << 20]);                            // needs a map 8 times larger: grows and remaps
            store.Write(new WriteBatch().Put([1, 0x20], [1]).Put([3], new byte[4 << 20]));

            Assert.True(store.MapSize > mapBefore, "the write did not grow the map");
            Assert.Equal(new byte[] { 1, 0 }, cursor.Key.ToArray());      // the current pair survived the remap
            var rest = StoreAssert.Drain(cursor);
            Assert.Equal(9, rest.Count);                                  // and the scan kept its snapshot
            Assert.Equal(new byte[] { 1, 9 }, rest[^1].Key);
        }, TestContext.Current.CancellationToken);

        var finished = await Task.WhenAny(grew, Task.Delay(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken));
        Assert.True(finished == grew, "the write deadlocked behind the scan its own thread held open");
        await grew;
        Assert.Equal(8 << 20, store.Get([2])!.Length);
        Assert.Equal(11, StoreAssert.Scan(store, [1], keysOnly: true).Count);
    }

    [Fact]
    public async Task Scans_and_reads_on_other_threads_continue_while_a_writer_grows_the_map()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath);
        for (var i = 0; i < 200; i++)
        {
            store.Put(Key(i), LmdbTestStores.Filled(100, i));
        }

        using var done = new CancellationTokenSource();
        var readers = Enumerable.Range(0, 2).Select(_ => Task.Run(() =>
        {
            var scans = 0;
            do
            {
                using var cursor = store.ScanPrefix("load/"u8.ToArray());
                var seen = 0;
                while (cursor.MoveNext())
                {
                    Assert.Equal((byte)BitConverter.ToInt32(cursor.Key[5..]), cursor.Value[0]);
                    seen++;
                    Thread.Yield();
                }

                Assert.True(seen >= 200);
                Assert.True(store.HaveKey(Key(7)));
                scans++;
            }
            while (!done.IsCancellationRequested);

            return scans;
        }, TestContext.Current.CancellationToken)).ToArray();

        var mapBefore = store.MapSize;
        for (var i = 0; i < 40; i++)
        {
            store.Put([9, (byte)i], new byte[256 << 10]);
        }

        done.Cancel();
        var scans = await Task.WhenAll(readers);
        Assert.True(store.MapSize > mapBefore);
        Assert.All(scans, s => Assert.True(s > 0));
    }

    [Fact]
    public void Two_processes_grow_a_1_MiB_map_at_once_and_each_reads_the_others_data()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath);
        using var child = ChildProcess.Start(["fill", StorePath, "Lmdb", "-", "child", "400", "16384"]);
        for (var i = 1; i <= 400; i++)
        {
            store.Put(Commands.Key("parent", i), LmdbTestStores.Filled(16384, i));
            if (i % 50 == 0)
            {
                Assert.True(StoreAssert.Scan(store, "child/"u8.ToArray(), keysOnly: true).Count >= 0);
            }
        }

        Assert.True(child.WaitForExit(TimeSpan.FromSeconds(90)) == 0, child.Output);
        Assert.True(store.MapSize >= 12 << 20, $"the map is {store.MapSize} bytes");
        var children = StoreAssert.Scan(store, "child/"u8.ToArray());
        Assert.Equal(400, children.Count);
        Assert.All(children, p => Assert.True(p.Value.Length == 16384 && p.Value[0] == p.Key[^1] && p.Value[^1] == p.Key[^1]));

        var (code, output) = ChildProcess.Run(["count", StorePath, "Lmdb", "-", "parent/"]);
        Assert.Equal(0, code);
        Assert.Contains("COUNT 400", output);
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(int i) => [.. "load/"u8, .. BitConverter.GetBytes(i)];

    /// <summary>The test host's key shape: tag, '/', big-endian number.</summary>
    private static class Commands
    {
        public static byte[] Key(string tag, int i) => [.. System.Text.Encoding.UTF8.GetBytes(tag + "/"), (byte)(i >> 24), (byte)(i >> 16), (byte)(i >> 8), (byte)i];
    }
}

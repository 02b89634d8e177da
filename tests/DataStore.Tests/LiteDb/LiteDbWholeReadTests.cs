using DataStore.LiteDb;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.LiteDb;

/// <summary>The whole-store read of export and verify: what a scan of everything gives, in chunks, with writers waiting.</summary>
[Collection(MemoryMeasurements.Name)]
public sealed class LiteDbWholeReadTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Gives_exactly_what_a_scan_of_everything_gives_across_long_key_runs_and_chunked_values(bool collide)
    {
        using var store = Open(TimeSpan.FromSeconds(30), collide ? new LiteDbKeys(_ => 42) : LiteDbKeys.Default);
        var random = new Random(21);
        var batch = new WriteBatch();
        for (var i = 0; i < 700; i++)
        {
            batch.Put([(byte)(i % 5), .. BitConverter.GetBytes(i)], Bytes.Random(random.Next(100), i));
        }

        // A run of 600 long keys sharing their first 1,000 bytes: chunks of 256 pairs end inside it.
        var prefix = Bytes.Random(LiteDbKeys.Direct, 3);
        for (var i = 0; i < 600; i++)
        {
            batch.Put([2, .. prefix, .. Bytes.Random(random.Next(1, 50), 1_000 + i)], BitConverter.GetBytes(i));
        }

        store.Write(batch);

        // Values past the 1 MiB inline limit are stored in chunks; three of them pass a chunk's 4 MiB budget.
        for (var i = 0; i < 5; i++)
        {
            store.Put([3, (byte)i], Bytes.Random(LiteDbTable.InlineLimit + 300_000 * i + 7, 50 + i));
        }

        foreach (var keysOnly in new[] { false, true })
        {
            var scanned = StoreAssert.Scan(store, [], keysOnly);
            using var cursor = store.ReadWholeStore(keysOnly);
            var read = StoreAssert.Drain(cursor);
            Assert.Equal(1_305, read.Count);
            Assert.Equal(scanned.Select(p => p.Key), read.Select(p => p.Key));
            Assert.True(scanned.Select(p => p.Value).SequenceEqual(read.Select(p => p.Value), ByteArrayComparer.Instance));
            Assert.False(cursor.MoveNext());
        }
    }

    [Fact]
    public async Task Writers_wait_until_it_is_disposed_and_then_proceed()
    {
        using var store = Open(TimeSpan.FromSeconds(2), LiteDbKeys.Default);
        store.Put("a"u8, "1"u8);

        var cursor = store.ReadWholeStore(keysOnly: false);
        Assert.True(cursor.MoveNext());
        var writer = Task.Run(() => store.Put("c"u8, "3"u8), TestContext.Current.CancellationToken);
        await Task.Delay(300, TestContext.Current.CancellationToken);
        Assert.False(writer.IsCompleted);
        Assert.Equal("1"u8.ToArray(), store.Get("a"u8));
        Assert.False(cursor.MoveNext());
        cursor.Dispose();
        await writer.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken);

        using (var held = store.ReadWholeStore(keysOnly: true))
        {
            await Assert.ThrowsAsync<StoreTimeoutException>(() => Task.Run(() => store.Put("b"u8, "2"u8), TestContext.Current.CancellationToken));
        }

        store.Put("b"u8, "2"u8);
        Assert.Equal(["a"u8.ToArray(), "b"u8.ToArray(), "c"u8.ToArray()], StoreAssert.Scan(store, [], keysOnly: true).Select(p => p.Key));
    }

    [Fact]
    public void Disposing_the_store_closes_an_open_whole_store_read()
    {
        var store = Open(TimeSpan.FromSeconds(30), LiteDbKeys.Default);
        store.Put("a"u8, "1"u8);
        var cursor = store.ReadWholeStore(keysOnly: false);
        store.Dispose();
        Assert.Throws<ObjectDisposedException>(() => cursor.MoveNext());
    }

    [Fact]
    public void Memory_held_while_reading_does_not_grow_with_the_store_as_one_read_transaction_does()
    {
        using (var filled = Open(TimeSpan.FromSeconds(30), LiteDbKeys.Default))
        {
            var batch = new WriteBatch();
            var value = new byte[1_000];
            for (var i = 0; i < 48_000; i++)
            {
                batch.Put([1, .. BitConverter.GetBytes(i).Reverse()], value);
            }

            filled.Write(batch);
        }

        // Each read starts from a freshly opened store, with none of the pages in LiteDB's cache yet.
        long scan, held;
        using (var store = Open(TimeSpan.FromSeconds(30), LiteDbKeys.Default))
        {
            scan = Held(() => store.ScanPrefix([]));
        }

        using (var store = Open(TimeSpan.FromSeconds(30), LiteDbKeys.Default))
        {
            held = Held(() => store.ReadWholeStore(keysOnly: false));
        }

        TestContext.Current.SendDiagnosticMessage($"held halfway: scan {scan:N0} bytes, whole-store read {held:N0} bytes");
        // One read transaction pins every page it read in LiteDB's page cache (about 1 KB a pair here); chunks
        // leave the cache at its plateau of about 14 MB (segments of 12 to 1,000 8-KiB pages) whatever the store holds.
        Assert.True(scan > 40_000_000, $"a scan held {scan:N0} bytes");
        Assert.True(held < 20_000_000, $"the whole-store read held {held:N0} bytes after 40,000 of 48,000 pairs (a scan {scan:N0})");
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>How much more memory is live halfway through the cursor <paramref name="open"/> opens than before it opened.</summary>
    private static long Held(Func<IKeyValueCursor> open)
    {
        var before = GC.GetTotalMemory(forceFullCollection: true);
        using var cursor = open();
        for (var i = 0; i < 40_000; i++)
        {
            Assert.True(cursor.MoveNext());
        }

        return GC.GetTotalMemory(forceFullCollection: true) - before;
    }

    private LiteDbStore Open(TimeSpan timeout, LiteDbKeys keys) =>
        LiteDbStore.Open(_directory.Path, Durability.Relaxed, new DataStoreOptions { Path = _directory.Path, Timeout = timeout }, NullLogger.Instance, keys);
}

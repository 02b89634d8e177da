using DataStore.FileSystem;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.FileSystem;

/// <summary>The whole-store read of export and verify: a scan of everything, in chunks that let writers in.</summary>
[Collection(MemoryMeasurements.Name)]
public sealed class FileSystemWholeReadTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void Gives_exactly_what_a_scan_of_everything_gives_over_split_directories_and_long_keys()
    {
        using var store = Open(maxEntries: 16, TimeSpan.FromSeconds(30));
        var random = new Random(11);
        for (var i = 0; i < 1_500; i++)
        {
            var key = new byte[1 + random.Next(i % 50 == 0 ? 600 : 6)];
            random.NextBytes(key);
            key[0] = (byte)(i % 3);
            var value = new byte[random.Next(64)];
            random.NextBytes(value);
            store.Put(key, value);
        }

        // Keys equal to a split directory's prefix live in the directory itself.
        store.Put([0], "zero"u8);
        store.Put([1], "one"u8);
        Assert.True(Directory.EnumerateDirectories(Path.Combine(StorePath, "data"), "*", SearchOption.AllDirectories).Count() > 20);

        foreach (var keysOnly in new[] { false, true })
        {
            var scanned = StoreAssert.Scan(store, [], keysOnly);
            using var cursor = store.ReadWholeStore(keysOnly);
            var read = StoreAssert.Drain(cursor);
            Assert.Equal(scanned.Count, read.Count);
            Assert.Equal(scanned.Select(p => Bytes.Hex(p.Key) + "=" + Bytes.Hex(p.Value)), read.Select(p => Bytes.Hex(p.Key) + "=" + Bytes.Hex(p.Value)));
            Assert.False(cursor.MoveNext());
        }
    }

    [Fact]
    public void Writers_of_another_thread_and_another_process_complete_while_the_read_is_in_progress()
    {
        using var store = Open(FileSystemStore.DefaultMaxEntries, TimeSpan.FromSeconds(30));
        var batch = new WriteBatch();
        for (var i = 0; i < 10_000; i++)
        {
            batch.Put(Bytes.Utf8($"k/{i:D5}"), Bytes.Utf8($"{i}"));
        }

        store.Write(batch);
        using var other = Open(FileSystemStore.DefaultMaxEntries, TimeSpan.FromSeconds(2));
        using var cursor = store.ReadWholeStore(keysOnly: false);
        Assert.True(cursor.MoveNext());
        var seen = new List<string> { Bytes.Hex(cursor.Key) };

        // Before, the whole read held the shared lock until disposed: these waited and timed out.
        other.Put("a/behind"u8, "1"u8);
        other.Put("z/ahead"u8, "1"u8);
        var (code, output) = ChildProcess.Run(["put", StorePath, "FileSystem", "-", "y/child", "1"]);
        Assert.True(code == 0, output);
        while (cursor.MoveNext())
        {
            seen.Add(Bytes.Hex(cursor.Key));
        }

        // The read is a snapshot (ADR 0022): exactly the keys there when it opened, once each, in order.
        Assert.Equal(Enumerable.Range(0, 10_000).Select(i => Bytes.Hex(Bytes.Utf8($"k/{i:D5}"))), seen);
        Assert.Equal(10_003, StoreAssert.Scan(store, []).Count);
    }

    [Fact]
    public void Memory_held_while_reading_does_not_grow_with_the_store_for_a_scan_or_the_whole_store_read()
    {
        using var store = Open(maxEntries: 64, TimeSpan.FromSeconds(30));
        var value = new byte[2048];
        for (var i = 0; i < 2_000; i++)
        {
            store.Put([(byte)(i % 7), .. BitConverter.GetBytes(i)], value);
        }

        // Before scans read in chunks (ADR 0022), a scan of everything held all 4 MB from its first pair on.
        var scan = Held(() => store.ScanPrefix([]));
        Assert.True(scan < 1_000_000, $"the scan held {scan:N0} bytes halfway through 4 MB of pairs");
        var held = Held(() => store.ReadWholeStore(keysOnly: false));
        Assert.True(held < 1_000_000, $"the whole-store read held {held:N0} bytes halfway through 4 MB of pairs");
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>How much more memory is live halfway through the cursor <paramref name="open"/> opens than before it opened.</summary>
    private static long Held(Func<IKeyValueCursor> open)
    {
        var before = GC.GetTotalMemory(forceFullCollection: true);
        using (var cursor = open())
        {
            for (var i = 0; i < 1_000; i++)
            {
                Assert.True(cursor.MoveNext());
            }

            var after = GC.GetTotalMemory(forceFullCollection: true);
            GC.KeepAlive(cursor);
            return after - before;
        }
    }

    private FileSystemStore Open(int maxEntries, TimeSpan timeout)
    {
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem }).Dispose();
        var options = new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem, Timeout = timeout };
        return FileSystemStore.Open(StorePath, Durability.Relaxed, options, NullLogger.Instance, maxEntries);
    }
}

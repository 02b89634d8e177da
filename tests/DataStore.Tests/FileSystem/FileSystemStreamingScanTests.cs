using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>FileSystem scans read in chunks (ADR 0022): a scan costs what it reads, and stays a snapshot through writes between its chunks.</summary>
public sealed class FileSystemStreamingScanTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_short_scan_reads_no_more_key_files_however_long_the_rest_of_its_range_is()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 64);
        Fill(store, "k/", 3_000);

        // A YCSB E style scan: ten pairs from a key in the middle, no end.
        TreeWalker.FilesRead = 0;
        using (var cursor = store.ScanRange(Bytes.Utf8("k/0500"), []))
        {
            for (var i = 0; i < 10; i++)
            {
                Assert.True(cursor.MoveNext());
                Assert.Equal($"k/{500 + i:D4}", System.Text.Encoding.UTF8.GetString(cursor.Key));
            }
        }

        // Before, the scan read all 2,500 pairs of the rest of the range before returning the first.
        Assert.InRange(TreeWalker.FilesRead, 10, 200);

        var all = StoreAssert.Range(store, Bytes.Utf8("k/0500"), []);
        Assert.Equal(2_500, all.Count);
        Assert.Equal(Enumerable.Range(500, 2_500).Select(i => $"k/{i:D4}={i}"), all.Select(Text));
    }

    [Fact]
    public void A_long_scan_stays_a_snapshot_through_writes_of_this_and_another_process_between_its_chunks()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 64);
        Fill(store, "k/", 2_000);
        store.Write(new WriteBatch().Put(Bytes.Utf8("pair/a"), Bytes.Utf8("0")).Put(Bytes.Utf8("pair/b"), Bytes.Utf8("0")));
        var expected = StoreAssert.Scan(store, []).Select(Text).ToList();

        using var cursor = store.ScanPrefix([]);
        Assert.True(cursor.MoveNext());
        var seen = new List<string> { Text((cursor.Key.ToArray(), cursor.Value.ToArray())) };
        store.Put(Bytes.Utf8("k/1500"), Bytes.Utf8("changed"));
        store.Put(Bytes.Utf8("k/1500x"), Bytes.Utf8("new"));
        store.Delete(Bytes.Utf8("k/1800"));
        store.Put(Bytes.Utf8("k/0000"), Bytes.Utf8("behind"));
        store.Write(new WriteBatch().DeletePrefix(Bytes.Utf8("k/19")).Put(Bytes.Utf8("k/1950"), Bytes.Utf8("batch")));
        var (code, output) = ChildProcess.Run(["put", StorePath, "FileSystem", "-", "k/1600", "child"]);
        Assert.True(code == 0, output);
        (code, output) = ChildProcess.Run(["batch-loop", StorePath, "FileSystem", "-", "3"]);
        Assert.True(code == 0, output);
        seen.AddRange(StoreAssert.Drain(cursor).Select(Text));

        Assert.Equal(expected, seen);
        var now = StoreAssert.Scan(store, []).Select(Text).ToList();
        Assert.Contains("k/1600=child", now);
        Assert.DoesNotContain("pair/b=0", now);
        Assert.DoesNotContain("k/1800=1800", now);
    }

    [Fact]
    public void Pre_images_are_kept_only_while_a_scan_is_open()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 64);
        Fill(store, "k/", 600);
        var scans = Path.Combine(StorePath, PreImages.Folder);
        using (var cursor = store.ScanPrefix([]))
        {
            Assert.True(cursor.MoveNext());
            store.Put(Bytes.Utf8("k/0300"), Bytes.Utf8("changed"));
            Assert.Single(Directory.GetFiles(Path.Combine(scans, PreImages.Records)));
        }

        store.Put(Bytes.Utf8("k/0301"), Bytes.Utf8("changed"));
        Assert.False(Directory.Exists(scans), "the writer after the scan closed moves its registration and pre-images aside");
        // Deleted on the thread pool (or by Compact, if a process died first).
        store.Compact();
        for (var i = 0; i < 100 && Directory.GetDirectories(StorePath, PreImages.Folder + "*").Length > 0; i++)
        {
            Thread.Sleep(50);
        }

        Assert.Empty(Directory.GetDirectories(StorePath, PreImages.Folder + "*"));
    }

    [Fact]
    public async Task A_long_scan_never_shows_half_of_a_batch_committed_while_it_reads()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 64);
        Fill(store, "m/", 600);
        store.Write(new WriteBatch().Put(Bytes.Utf8("a"), BitConverter.GetBytes(0)).Put(Bytes.Utf8("z"), BitConverter.GetBytes(0)));
        var writer = Task.Run(() =>
        {
            for (var i = 1; i <= 100; i++)
            {
                store.Write(new WriteBatch().Put(Bytes.Utf8("a"), BitConverter.GetBytes(i)).Put(Bytes.Utf8("z"), BitConverter.GetBytes(i)));
            }
        }, TestContext.Current.CancellationToken);

        var scans = 0;
        while (!writer.IsCompleted || scans < 5)
        {
            var pairs = StoreAssert.Scan(store, []);
            Assert.Equal(602, pairs.Count);
            Assert.Equal(BitConverter.ToInt32(pairs[0].Value), BitConverter.ToInt32(pairs[^1].Value));
            scans++;
        }

        await writer;
    }

    [Fact]
    public async Task A_backup_lets_another_writer_in_while_it_runs_and_copies_the_store_as_it_began()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 256);
        Fill(store, "k/", 9_000);
        using var writer = FileSystemStore.Open(StorePath, Durability.Relaxed,
            new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem, Timeout = TimeSpan.FromSeconds(3) }, Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance, maxEntries: 256);
        var wrote = 0;

        // Progress comes from inside the copy; before, the copy held the shared lock throughout and this Put timed out.
        var progress = new SynchronousProgress<StoreProgress>(p =>
        {
            if (p.Bytes > 0 && wrote++ == 0)
            {
                writer.Put(Bytes.Utf8("k/8999"), Bytes.Utf8("during"));
                writer.Put(Bytes.Utf8("z/during"), Bytes.Utf8("1"));
            }
        });
        var result = await store.BackupAsync(_directory.Sub("backup"), progress, TestContext.Current.CancellationToken);

        Assert.True(wrote > 0, "no progress was reported while the backup ran");
        Assert.Equal("during", System.Text.Encoding.UTF8.GetString(store.Get(Bytes.Utf8("k/8999"))!));
        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = result.Path });
        Assert.Equal(Enumerable.Range(0, 9_000).Select(i => $"k/{i:D4}={i}"), StoreAssert.Scan(copy, []).Select(Text));
    }

    public void Dispose() => _directory.Dispose();

    private static void Fill(IKeyValueStore store, string prefix, int count)
    {
        var batch = new WriteBatch();
        for (var i = 0; i < count; i++)
        {
            batch.Put(Bytes.Utf8($"{prefix}{i:D4}"), Bytes.Utf8($"{i}"));
        }

        store.Write(batch);
    }

    private static string Text((byte[] Key, byte[] Value) pair) =>
        System.Text.Encoding.UTF8.GetString(pair.Key) + "=" + System.Text.Encoding.UTF8.GetString(pair.Value);
}

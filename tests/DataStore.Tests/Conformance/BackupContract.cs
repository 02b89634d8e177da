using System.Buffers.Binary;
using System.Collections.Concurrent;

namespace DataStore.Tests.Conformance;

/// <summary>Issue 7, backup: an online copy opens as a normal store of the same backend, and is consistent while others write.</summary>
public abstract class BackupContract : StoreContract
{
    private const string Rule = "backup: a consistent online copy";
    private const string Tag = "w";

    // Bounded so a FileSystem store stays in one directory (no split) and the test stays short.
    private const int Writes = 2_000;
    private const int Filled = 1_000;

    [Fact]
    public async Task A_backup_opens_as_a_normal_store_with_every_pair_equal()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        var expected = Fill(store, 600);
        expected[Bytes.Key(2_000, 9, 1)] = Bytes.Random(300_000, 7); // a long key and a large value
        store.Put(Bytes.Key(2_000, 9, 1), expected[Bytes.Key(2_000, 9, 1)]);
        var reports = new ConcurrentQueue<StoreProgress>();

        var result = await store.BackupAsync(Directory.Sub("backup"), new SynchronousProgress<StoreProgress>(reports.Enqueue), TestContext.Current.CancellationToken);

        Assert.Equal(Path.GetFullPath(Directory.Sub("backup")), result.Path);
        Assert.Equal(new DirectoryInfo(result.Path).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length), result.Bytes);
        Assert.All(reports, r => Assert.Equal(StorePhase.BackingUp, r.Phase));
        Assert.NotEmpty(reports);
        var copy = KeyValueStore.Open(new DataStoreOptions { Path = result.Path, Timeout = TimeSpan.FromSeconds(10) });
        try
        {
            Assert.Equal(Backend, copy.Backend);
            var pairs = StoreAssert.Scan(copy, []);
            Assert.Equal(expected.Count, pairs.Count);
            foreach (var (key, value) in pairs)
            {
                Assert.Equal(expected[key], value);
            }

            copy.Put("after"u8, [1]); // a normal, writable store
            Assert.True(copy.HaveKey("after"u8));
        }
        finally
        {
            copy.Dispose();
        }
    }

    [Fact]
    public async Task A_backup_refuses_a_non_empty_destination_and_one_inside_the_store()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        store.Put([1], [1]);
        var busy = Directory.Sub("busy");
        System.IO.Directory.CreateDirectory(busy);
        File.WriteAllText(Path.Combine(busy, "keep.txt"), "mine");

        await Assert.ThrowsAsync<ArgumentException>(() => store.BackupAsync(busy, cancellationToken: TestContext.Current.CancellationToken));
        await Assert.ThrowsAsync<ArgumentException>(() => store.BackupAsync(Path.Combine(StorePath, "inside"), cancellationToken: TestContext.Current.CancellationToken));
        Assert.Equal(["keep.txt"], System.IO.Directory.EnumerateFileSystemEntries(busy).Select(Path.GetFileName));
    }

    [Fact]
    public async Task A_cancelled_backup_leaves_no_partial_copy()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        Fill(store, 100);
        using var cancelled = new CancellationTokenSource();
        cancelled.Cancel();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => store.BackupAsync(Directory.Sub("cancelled"), cancellationToken: cancelled.Token));
        Assert.False(System.IO.Directory.Exists(Directory.Sub("cancelled")));
    }

    [Fact]
    public async Task A_backup_cancelled_after_it_started_removes_what_it_wrote()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        Fill(store, 100);
        using var cancel = new CancellationTokenSource();
        var progress = new SynchronousProgress<StoreProgress>(_ => cancel.Cancel()); // the first report comes once the backup runs

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => store.BackupAsync(Directory.Sub("cancelled"), progress, cancel.Token));
        Assert.False(System.IO.Directory.Exists(Directory.Sub("cancelled")));
        Assert.Equal(100, StoreAssert.Scan(store, [], keysOnly: true).Count); // the store itself is untouched
    }

    [Fact]
    public async Task A_disposed_store_refuses_a_backup()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        store.Dispose();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => store.BackupAsync(Directory.Sub("backup"), cancellationToken: TestContext.Current.CancellationToken));
        Assert.False(System.IO.Directory.Exists(Directory.Sub("backup")));
    }

    [Fact]
    public async Task A_backup_taken_while_a_second_process_writes_is_consistent()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        if ((CapabilitiesOf(Backend) & StoreCapabilities.SharedAcrossProcesses) == 0)
        {
            Assert.Skip($"{Backend} lets one process at a time open a store, so no second process can write during the backup; " +
                "A_backup_taken_while_another_thread_writes_is_consistent covers it with a writer thread.");
        }

        var store = Open();
        Fill(store, Filled);
        using var writer = ChildProcess.Start(["put-loop", StorePath, Backend.ToString(), "-", Tag, Writes.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        writer.WaitForLine(line => line == "ACK 100", TimeSpan.FromSeconds(60));
        var ackedBefore = Acked(writer.LastLine("ACK "));

        var clock = System.Diagnostics.Stopwatch.StartNew();
        var result = await store.BackupAsync(Directory.Sub("backup"), cancellationToken: TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine($"backup took {clock.ElapsedMilliseconds} ms; writes acknowledged: {ackedBefore} before, {Acked(writer.LastLine("ACK "))} after");
        writer.KillHard();

        CheckConsistent(result.Path, ackedBefore);
    }

    [Fact]
    public async Task A_backup_taken_while_another_thread_writes_is_consistent()
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var store = Open();
        Fill(store, Filled);
        var acked = 0;
        using var stop = new CancellationTokenSource();
        var writer = Task.Run(
            () =>
        {
            for (var i = 1; i <= Writes && !stop.IsCancellationRequested; i++)
            {
                store.Put(Key(i), Number(i));
                Volatile.Write(ref acked, i);
            }
        },
            TestContext.Current.CancellationToken);
        while (Volatile.Read(ref acked) < 100 && !writer.IsCompleted)
        {
            Thread.Sleep(1);
        }

        var ackedBefore = Volatile.Read(ref acked);
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var result = await store.BackupAsync(Directory.Sub("backup"), cancellationToken: TestContext.Current.CancellationToken);
        TestContext.Current.TestOutputHelper?.WriteLine($"backup took {clock.ElapsedMilliseconds} ms; writes acknowledged: {ackedBefore} before, {Volatile.Read(ref acked)} after");
        await stop.CancelAsync();
        await writer;

        CheckConsistent(result.Path, ackedBefore);
    }

    /// <summary>The copy opens; if it holds write i it holds every j &lt; i; it holds every write acknowledged before the backup began.</summary>
    private static void CheckConsistent(string backup, int ackedBefore)
    {
        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = backup, Timeout = TimeSpan.FromSeconds(10) });
        var seen = StoreAssert.Scan(copy, [.. Bytes.Utf8(Tag + "/")], keysOnly: true)
            .Select(p => BinaryPrimitives.ReadInt32BigEndian(p.Key.AsSpan(Tag.Length + 1)))
            .Order()
            .ToList();
        var highest = seen.Count == 0 ? 0 : seen[^1];
        Assert.True(seen.SequenceEqual(Enumerable.Range(1, highest)), $"the backup holds {seen.Count} writes up to {highest}, with gaps");
        Assert.True(highest >= ackedBefore, $"the backup holds writes up to {highest}, but {ackedBefore} were acknowledged before it began");
        Assert.Equal(Filled, StoreAssert.Scan(copy, [.. Bytes.Utf8("fill/")], keysOnly: true).Count);
    }

    // Single puts: FileSystem makes a batch durable (a flush per file, or a file-system sync), which is slow in a test.
    private static Dictionary<byte[], byte[]> Fill(IKeyValueStore store, int count)
    {
        var expected = new Dictionary<byte[], byte[]>(ByteArrayComparer.Instance);
        for (var i = 0; i < count; i++)
        {
            var key = Bytes.Utf8($"fill/{i:D6}");
            var value = Bytes.Random(1_000, i);
            expected[key] = value;
            store.Put(key, value);
        }

        return expected;
    }

    private static int Acked(string? line) => line is null ? 0 : int.Parse(line.AsSpan(4), System.Globalization.CultureInfo.InvariantCulture);

    private static byte[] Key(int i) => [.. Bytes.Utf8(Tag + "/"), .. Number(i)];

    private static byte[] Number(int i)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, i);
        return bytes;
    }
}

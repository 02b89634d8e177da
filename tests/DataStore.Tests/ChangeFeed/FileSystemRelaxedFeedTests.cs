using DataStore.ChangeFeed.FileSystem;
using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// A Relaxed FileSystem store appends its Puts' and Deletes' records without a sync (ADR 0020, *Relaxed*): a power loss
/// may then leave a record without its data or data without its record, so the first open after a restart completes
/// the data and restarts the log past a gap, and every subscriber resynchronizes. A Durable store keeps its log.
/// </summary>
public sealed class FileSystemRelaxedFeedTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string Folder => Path.Combine(StorePath, ChangeLogFiles.Folder);

    private string Marker => Path.Combine(Folder, "unsynced");

    [Fact]
    public async Task A_record_a_power_loss_left_without_its_data_is_never_delivered_subscribers_resynchronize()
    {
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("a/1"u8, [1]);
            store.Put("a/2"u8, [2]);
            store.Delete("a/1"u8);
        }

        Assert.True(File.Exists(Marker), "a Relaxed writer's first unsynced record is preceded by the marker");

        // The record of "put a/9" reached the disk, its key file's renames did not.
        Append(ChangeLogFrame.Encode(4, [1, 3, (byte)'a', (byte)'/', (byte)'9']));
        using (var same = Open(Durability.Relaxed))
        {
            Assert.Equal(4, same.ChangeSequence()); // same boot: the page cache held everything, nothing to restart
        }

        File.Delete(Path.Combine(StorePath, "state")); // the machine restarted
        using var restarted = Open(Durability.Relaxed);
        var restartedAt = 4 + ChangeLogFiles.RestartGap;
        Assert.Equal(restartedAt, restarted.ChangeSequence());
        Assert.False(File.Exists(Marker));
        Assert.Null(restarted.Get("a/9"u8));
        Assert.Equal([2], restarted.Get("a/2"u8));
        var first = await First(restarted, after: 3);
        Assert.Equal((StoreChangeKind.Resynchronize, restartedAt), (first.Kind, first.Sequence));

        restarted.Put("a/3"u8, [3]);
        var next = await First(restarted, after: restartedAt);
        Assert.Equal((StoreChangeKind.Commit, restartedAt + 1), (next.Kind, next.Sequence));
        Assert.Equal("a/3"u8.ToArray(), next.Changes.Single().Key);
    }

    [Fact]
    public void A_pending_Put_whose_records_a_power_loss_cut_is_completed_and_the_log_restarted()
    {
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("a/1"u8, [1]);
            store.Put("a/2"u8, [2]);
            TreeWriter.LoggedPutStepForTests = step => _ = step == 3 ? throw new IOException("stopped after the record's append") : 0;
            try
            {
                Assert.ThrowsAny<DataStoreException>(() => store.Put("a/3"u8, [3])); // stops after its record: tmp/feed-3.put is left
            }
            finally
            {
                TreeWriter.LoggedPutStepForTests = null;
            }
        }

        // Only the first record reached the disk; the pending name of commit 3 did.
        using (var segment = new FileStream(Directory.GetFiles(Folder, "0*").Single(), FileMode.Open))
        {
            segment.SetLength(ChangeLogFrame.Overhead + 5);
        }

        File.Delete(Path.Combine(StorePath, "state"));
        using var restarted = Open(Durability.Relaxed); // it used to refuse: "does not follow the change log"
        Assert.Equal([3], restarted.Get("a/3"u8));
        Assert.Equal(1 + ChangeLogFiles.RestartGap, restarted.ChangeSequence()); // past the highest whole record left; the gap covers the cut ones
    }

    [Fact]
    public void A_Durable_store_writes_no_marker_and_keeps_its_log_across_a_restart()
    {
        using (var store = Open(Durability.Durable))
        {
            store.Put("a/1"u8, [1]);
            store.Delete("a/1"u8);
        }

        Assert.False(File.Exists(Marker));
        File.Delete(Path.Combine(StorePath, "state"));
        using var restarted = Open(Durability.Durable);
        Assert.Equal(2, restarted.ChangeSequence());
    }

    public void Dispose() => _directory.Dispose();

    private static async Task<StoreChange> First(IKeyValueStore store, long after)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await foreach (var change in store.Watch([], after, timeout.Token))
        {
            return change;
        }

        throw new InvalidOperationException("the subscription ended without an event");
    }

    private void Append(byte[] bytes)
    {
        using var segment = new FileStream(Directory.GetFiles(Folder, "0*").Order(StringComparer.Ordinal).Last(), FileMode.Append);
        segment.Write(bytes);
    }

    private IKeyValueStore Open(Durability durability) => KeyValueStore.Open(new DataStoreOptions
    {
        Path = StorePath,
        Backend = StoreBackend.FileSystem,
        ChangeFeed = true,
        Durability = durability,
        Timeout = TimeSpan.FromSeconds(10),
    });
}

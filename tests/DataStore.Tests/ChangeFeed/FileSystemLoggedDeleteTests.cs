using DataStore.ChangeFeed.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// The FileSystem change feed's delete path without the journal (ADR 0020, *The FileSystem log*): the record is the intent,
/// so recovery removes the keys of the log's last record again after a dead writer or a restart, and cuts a torn append.
/// The kill -9 test at each step is in <see cref="FileSystemChangeLogTests"/>.
/// </summary>
public sealed class FileSystemLoggedDeleteTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    private string LastSegment => Directory.GetFiles(Path.Combine(StorePath, ChangeLogFiles.Folder), "0*").Order(StringComparer.Ordinal).Last();

    [Fact]
    public void A_delete_record_whose_removal_a_power_loss_undid_is_completed_at_the_first_open_after_a_restart()
    {
        using (var store = Open())
        {
            store.Put("a/1"u8, [1]);
            store.Put("a/2"u8, [2]);
        }

        // The record of "delete a/1" reached the disk, its unlink did not; the machine restarted (a new shared state).
        Append(ChangeLogFrame.Encode(3, [2, 3, (byte)'a', (byte)'/', (byte)'1']));
        using (var same = Open())
        {
            Assert.Equal([1], same.Get("a/1"u8)); // same boot, no writer died: nothing to complete
        }

        File.Delete(Path.Combine(StorePath, "state"));
        using var restarted = Open();
        Assert.Null(restarted.Get("a/1"u8));
        Assert.Equal([2], restarted.Get("a/2"u8));
        Assert.Equal(3, restarted.ChangeSequence());
        restarted.Put("a/1"u8, [9]);
        Assert.Equal(4, restarted.ChangeSequence());
        Assert.Equal([9], restarted.Get("a/1"u8));
    }

    [Fact]
    public void A_torn_append_of_the_next_commit_is_cut_at_the_first_open_after_a_restart_and_other_broken_ends_are_damage()
    {
        using (var store = Open())
        {
            store.Put("a/1"u8, [1]);
        }

        var frame = ChangeLogFrame.Encode(2, [2, 3, (byte)'a', (byte)'/', (byte)'1']);
        Append(frame.AsSpan(0, frame.Length - 3).ToArray()); // the delete's writer died with the machine inside its append
        File.Delete(Path.Combine(StorePath, "state"));
        using (var restarted = Open())
        {
            Assert.Equal(1, restarted.ChangeSequence());
            Assert.Equal([1], restarted.Get("a/1"u8)); // nothing was removed before the record was whole
            restarted.Put("a/2"u8, [2]);
            Assert.Equal(2, restarted.ChangeSequence());
        }

        var stranger = ChangeLogFrame.Encode(7, [2, 3, (byte)'a', (byte)'/', (byte)'1']); // names no next commit: damage, not a torn append
        Append(stranger.AsSpan(0, stranger.Length - 1).ToArray());
        File.Delete(Path.Combine(StorePath, "state"));
        using var damaged = Open();
        var error = Assert.Throws<StoreFormatException>(() => damaged.ChangeSequence());
        Assert.Contains(LastSegment, error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();

    private void Append(byte[] bytes)
    {
        using var segment = new FileStream(LastSegment, FileMode.Append);
        segment.Write(bytes);
    }

    private IKeyValueStore Open() => KeyValueStore.Open(new DataStoreOptions
    {
        Path = StorePath,
        Backend = StoreBackend.FileSystem,
        ChangeFeed = true,
        Durability = Durability.Durable, // a Relaxed log restarts after a restart instead (FileSystemRelaxedFeedTests)
        Timeout = TimeSpan.FromSeconds(10),
    });
}

using DataStore.ChangeFeed;
using DataStore.Platform;
using DataStore.Sharing;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// A store's log restarts past a gap at the first open in a later boot (ADR 0020, *The log's restart after a power
/// loss*): a writer whose commits are visible before they are synced (Relaxed; Durable on Sqlite, Lmdb, LiteDb) marks the
/// store with its boot, and an open that finds the mark of another boot appends an empty record
/// <see cref="ChangeLogRestart.Gap"/> past the latest, so a subscriber that saw a commit a power loss may have taken back
/// resynchronizes, and no number is given again. The other boot is played by rewriting the mark.
/// </summary>
public abstract class ChangeLogRestartContract : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    protected abstract StoreBackend Backend { get; }

    private string StorePath => _directory.Sub("store");

    private string Marker => Path.Combine(StorePath, ChangeLogRestart.MarkerName);

    [Fact]
    public async Task A_Relaxed_store_marked_in_another_boot_restarts_its_log_and_a_subscriber_from_before_resynchronizes()
    {
        Assert.SkipWhen(BootIdentity.Current == 0, "the boot of this machine cannot be known (not Linux), so the log is not restarted");
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("a/1"u8, [1]);
            store.Put("a/2"u8, [2]);
            Assert.True(File.Exists(Marker), "a Relaxed writer marks the store before its first commit");
        }

        Assert.False(File.Exists(Marker), "the last writer's clean close takes the mark back: every commit is on disk");
        using (var same = Open(Durability.Relaxed))
        {
            Assert.Equal(2, same.ChangeSequence()); // same boot: nothing was lost, nothing to restart
        }

        File.WriteAllBytes(Marker, BitConverter.GetBytes(BootIdentity.Current ^ 1)); // the machine restarted since
        using var restarted = Open(Durability.Relaxed);
        var restartedAt = 2 + ChangeLogRestart.Gap;
        Assert.Equal(restartedAt, restarted.ChangeSequence());
        Assert.Equal(BootIdentity.Current, BitConverter.ToUInt64(File.ReadAllBytes(Marker)));
        Assert.Equal([2], restarted.Get("a/2"u8));

        // A subscriber that saw commit 1 gets commit 2, which survived, then the gap; the next commit follows the gap.
        var events = await Take(restarted, after: 1, count: 2);
        Assert.Equal([(StoreChangeKind.Commit, 2), (StoreChangeKind.Resynchronize, restartedAt)], events.Select(e => (e.Kind, e.Sequence)));
        restarted.Put("a/3"u8, [3]);
        var next = (await Take(restarted, after: restartedAt, count: 1)).Single();
        Assert.Equal((StoreChangeKind.Commit, restartedAt + 1), (next.Kind, next.Sequence));
        Assert.Equal("a/3"u8.ToArray(), next.Changes.Single().Key);
    }

    /// <summary>
    /// True where a Durable commit is visible before the sync its caller waits for (Sqlite, Lmdb, LiteDb: a group sync after
    /// the commit), so a Durable writer marks the store too; false where it is shown only once synced (RocksDb's <c>sync = true</c>).
    /// </summary>
    protected abstract bool DurableShownBeforeSynced { get; }

    [Fact]
    public void A_Durable_store_marks_itself_and_restarts_in_a_later_boot_only_where_its_commit_is_visible_before_its_sync()
    {
        Assert.SkipWhen(BootIdentity.Current == 0, "the boot of this machine cannot be known (not Linux), so the log is not restarted");
        using (var store = Open(Durability.Durable))
        {
            store.Put("a/1"u8, [1]);
            Assert.Equal(DurableShownBeforeSynced, File.Exists(Marker));
        }

        Assert.False(File.Exists(Marker), "the last writer's clean close takes the mark back");
        using (var same = Open(Durability.Durable))
        {
            Assert.Equal(1, same.ChangeSequence());
        }

        if (DurableShownBeforeSynced)
        {
            File.WriteAllBytes(Marker, BitConverter.GetBytes(BootIdentity.Current ^ 1)); // a writer of another boot did not close
        }

        using var later = Open(Durability.Durable);
        Assert.Equal(DurableShownBeforeSynced ? 1 + ChangeLogRestart.Gap : 1, later.ChangeSequence());
    }

    [Fact]
    public void A_close_keeps_the_mark_while_another_process_has_the_store_open_or_was_killed_with_it_open()
    {
        Assert.SkipWhen(BootIdentity.Current == 0, "the boot of this machine cannot be known (not Linux), so the log is not restarted");
        using var other = HeldOpenByAChild();
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("a/2"u8, [2]);
        }

        Assert.True(File.Exists(Marker), "another writer still has the store open: its commits may be unsynced");
        other.KillHard();
        other.WaitForExit(TimeSpan.FromSeconds(30));
        using (Open(Durability.Relaxed))
        {
        }

        Assert.False(File.Exists(Marker), "the killed writer's commits are in the page cache: the next clean close syncs them and takes the mark back");
    }

    /// <summary>
    /// The one lock that says whether other processes have the store open is the store's open lock, held by the clients of a
    /// brokered store (RocksDb, LiteDb) as well as by their owner: a client that closes last, after its owner was killed
    /// with the store marked, takes the mark back. On Sqlite and Lmdb the second process writes directly; the same holds.
    /// </summary>
    [Fact]
    public void The_last_process_to_close_takes_the_mark_back_after_the_first_was_killed_even_as_a_client_of_it()
    {
        Assert.SkipWhen(BootIdentity.Current == 0, "the boot of this machine cannot be known (not Linux), so the log is not restarted");
        using var first = HeldOpenByAChild();
        var last = Open(Durability.Relaxed);
        try
        {
            last.Put("a/2"u8, [2]);
            Assert.Equal(Backend is StoreBackend.RocksDb or StoreBackend.LiteDb ? new StoreSharing(StoreRole.Client, first.Id) : StoreSharing.Direct, last.Sharing);
            Assert.True(File.Exists(Marker), "the first process marked the store (Relaxed)");
            first.KillHard();
            first.WaitForExit(TimeSpan.FromSeconds(30));
        }
        finally
        {
            last.Dispose(); // a client makes no call after the kill, so it closes as a client
        }

        Assert.False(File.Exists(Marker), "the last process to have the store open closed cleanly: every commit is on disk");
        using var reopened = Open(Durability.Relaxed);
        Assert.Equal([2], reopened.Get("a/2"u8));
        Assert.Equal(2, reopened.ChangeSequence());
    }

    public void Dispose()
    {
        _directory.Dispose();
        GC.SuppressFinalize(this);
    }

    private static async Task<List<StoreChange>> Take(IKeyValueStore store, long after, int count)
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        var events = new List<StoreChange>();
        await foreach (var change in store.Watch([], after, timeout.Token))
        {
            events.Add(change);
            if (events.Count == count)
            {
                break;
            }
        }

        return events;
    }

    // A store with one commit, then held open (Relaxed, so it is marked) by a child process: the owner of a brokered store.
    private ChildProcess HeldOpenByAChild()
    {
        using (var store = Open(Durability.Relaxed))
        {
            store.Put("a/1"u8, [1]);
        }

        var child = ChildProcess.Start(["hold-open", StorePath, Backend.ToString(), "Relaxed", "600000"]);
        try
        {
            child.WaitForLine(l => l.StartsWith("HOLDING ", StringComparison.Ordinal), TimeSpan.FromSeconds(60));
            return child;
        }
        catch
        {
            child.Dispose();
            throw;
        }
    }

    private IKeyValueStore Open(Durability durability) => KeyValueStore.Open(new DataStoreOptions
    {
        Path = StorePath,
        Backend = Backend,
        ChangeFeed = true,
        Durability = durability,
        Timeout = TimeSpan.FromSeconds(10),
    });
}

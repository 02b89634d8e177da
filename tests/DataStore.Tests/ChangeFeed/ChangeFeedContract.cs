using System.Text;
using DataStore.ChangeFeed;
using DataStore.Tests.Conformance;
using DataStore.TestHost;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// Rule 13: a process watching a prefix receives every commit of every process, one event per commit, in order, with a
/// sequence that never goes backwards; falling behind the retention is an explicit resynchronize. The writers are real
/// child processes (tests/DataStore.TestHost <c>feed-writes</c>), killed with kill -9 in one test.
/// </summary>
public abstract class ChangeFeedContract : StoreContract
{
    /// <summary>How long a test waits for the events it expects (<c>DATASTORE_FEED_PATIENCE_S</c> for long soaks).</summary>
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(int.Parse(Environment.GetEnvironmentVariable("DATASTORE_FEED_PATIENCE_S") ?? "120", System.Globalization.CultureInfo.InvariantCulture));

    [Fact]
    public async Task Every_commit_of_another_process_arrives_once_in_order_with_a_batch_as_one_event()
    {
        var store = OpenFeed();
        var commits = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_FEED_COMMITS"), out var asked) ? asked : CiCommits;
        var start = store.ChangeSequence();
        var watching = Collect(store, FeedWorkload.Prefix, start, commits);
        using var writer = ChildProcess.Start(Args("feed-writes", "1", commits.ToString(System.Globalization.CultureInfo.InvariantCulture)));

        var events = await watching;

        Assert.True(writer.WaitForExit(Patience) == 0, writer.Output);
        AssertCommits(events, start, 1);
    }

    [Fact]
    public async Task A_subscriber_resuming_from_a_saved_sequence_gets_exactly_the_commits_after_it()
    {
        var store = OpenFeed();
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "20")).ExitCode);

        var events = await Collect(store, FeedWorkload.Prefix, after: 12, count: 8);

        AssertCommits(events, 12, 13);
        Assert.Equal(20, store.ChangeSequence());
    }

    [Fact]
    public async Task A_subscriber_behind_the_retention_is_told_to_resynchronize_then_gets_every_later_commit()
    {
        var store = OpenFeed(retention: 10);
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "50")).ExitCode); // the writer prunes to 10 as it closes
        if (store.Sharing.Role != StoreRole.Direct)
        {
            await Task.Delay(ChangeLogPruner.Interval * 2, TestContext.Current.CancellationToken); // the owner's engine wrote it, and prunes on its timer
        }


        using var timeout = Deadline();
        await using var subscription = store.Watch(Encoding.UTF8.GetBytes(FeedWorkload.Prefix), afterSequence: 5, timeout.Token).GetAsyncEnumerator(timeout.Token);
        Assert.True(await subscription.MoveNextAsync());
        Assert.Equal((StoreChangeKind.Resynchronize, 50L, 0), (subscription.Current.Kind, subscription.Current.Sequence, subscription.Current.Changes.Count));

        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "51", "54")).ExitCode);
        var events = new List<StoreChange>();
        while (events.Count < 4 && await subscription.MoveNextAsync())
        {
            events.Add(subscription.Current);
        }

        AssertCommits(events, 50, 51);
    }

    [Fact]
    public async Task A_subscriber_resuming_from_a_sequence_the_store_never_reached_is_told_to_resynchronize()
    {
        var store = OpenFeed();
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "3")).ExitCode);

        var events = await Collect(store, FeedWorkload.Prefix, after: 1000, count: 1);

        Assert.Equal((StoreChangeKind.Resynchronize, 3L), (events[0].Kind, events[0].Sequence));
    }

    [Fact]
    public void The_sequence_never_goes_backwards_across_restarts_compaction_and_pruning_to_one_commit()
    {
        var store = OpenFeed(retention: 1);
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "5")).ExitCode);
        store.Compact();
        store.Dispose();

        var reopened = Open();
        Assert.Equal(5, reopened.ChangeSequence());
        FeedWorkload.Commit(reopened, 6);
        Assert.Equal(6, reopened.ChangeSequence());
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "7", "7")).ExitCode);
        Assert.Equal(7, reopened.ChangeSequence());
    }

    [Fact]
    public async Task A_backup_continues_the_sequence_and_export_and_verify_see_only_the_pairs()
    {
        var store = OpenFeed();
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "6")).ExitCode);
        var model = new SortedSet<string>(StringComparer.Ordinal);
        for (var i = 1; i <= 6; i++)
        {
            FeedWorkload.Replay(model, i);
        }

        var copy = Directory.Sub("copy");
        await store.BackupAsync(copy, cancellationToken: TestContext.Current.CancellationToken);
        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        using var export = new MemoryStream();
        var digest = await store.ExportAsync(export, cancellationToken: TestContext.Current.CancellationToken);

        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
        Assert.Equal(model.Count, report.Digest.Pairs);
        Assert.Equal(model.Count, digest.Pairs);
        var restored = Open(path: copy);
        Assert.Equal(6, restored.ChangeSequence());
        FeedWorkload.Commit(restored, 7);
        Assert.Equal(7, restored.ChangeSequence());
    }

    /// <remarks>One round in CI; the soak is <c>DATASTORE_FEED_KILL_ROUNDS=50</c> (<c>DATASTORE_FEED_KILL_SEED=n</c> replays a run).</remarks>
    [Fact]
    public async Task A_writer_killed_with_kill_9_leaves_every_acknowledged_commit_with_its_event_and_no_data_without_one()
    {
        var rounds = int.Parse(Environment.GetEnvironmentVariable("DATASTORE_FEED_KILL_ROUNDS") ?? "1", System.Globalization.CultureInfo.InvariantCulture);
        var seed = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_FEED_KILL_SEED"), out var given) ? given : Random.Shared.Next();
        var random = new Random(seed);
        var store = OpenFeed();
        var model = new SortedSet<string>(StringComparer.Ordinal);
        var latest = 0;
        for (var round = 1; round <= rounds; round++)
        {
            var context = $"seed {seed}, round {round}";
            var first = latest + 1;
            using (var writer = ChildProcess.Start(Args("feed-writes", first.ToString(System.Globalization.CultureInfo.InvariantCulture), "100000000")))
            {
                var after = first + 100 + random.Next(400);
                writer.WaitForLine(line => line == $"ACK {after}", Patience);
                Thread.Sleep(random.Next(30));
                writer.KillHard();
                var acknowledged = int.Parse(writer.LastLine("ACK ")![4..], System.Globalization.CultureInfo.InvariantCulture);
                Assert.True(store.ChangeSequence() >= acknowledged, $"{context}: commit {acknowledged} was acknowledged, the log ends at {store.ChangeSequence()}");
            }

            var previous = latest;
            latest = (int)SettledSequence.Of(store); // a write the killed client sent may still be applied by the owner
            var events = await Collect(store, FeedWorkload.Prefix, after: previous, count: latest - previous);
            AssertCommits(events, previous, first);
            for (var i = first; i <= latest; i++)
            {
                FeedWorkload.Replay(model, i);
            }

            var stored = StoreAssert.Scan(store, Encoding.UTF8.GetBytes(FeedWorkload.Prefix), keysOnly: true).Select(p => Encoding.UTF8.GetString(p.Key));
            Assert.True(model.SequenceEqual(stored), $"{context}: the store does not hold what its {latest} logged commits made");
        }
    }

    [Fact]
    public async Task A_watch_skips_commits_outside_its_prefix_and_names_a_prefix_delete_as_one_range_invisible_to_scans()
    {
        var store = OpenFeed();
        store.Put("a/1"u8, [1]);
        store.Put("b/1"u8, [1]);
        store.DeletePrefix("a/"u8);
        store.Write(new WriteBatch().Put("b/2"u8, [2]).Put("a/2"u8, [2]));

        var events = await Collect(store, "a/", after: 0, count: 3);

        Assert.Equal(new[] { 1L, 3L, 4L }, events.Select(e => e.Sequence));
        Assert.Equal((KeyChangeKind.DeleteRange, "a/", "a0"), Describe(events[1].Changes.Single()));
        Assert.Equal((KeyChangeKind.Put, "a/2", ""), Describe(events[2].Changes.Single()));
        Assert.Equal(new[] { "a/2", "b/1", "b/2" }, StoreAssert.Scan(store, [], keysOnly: true).Select(p => Encoding.UTF8.GetString(p.Key)));
    }

    [Fact]
    public async Task Disposing_the_store_ends_a_waiting_subscription_with_ObjectDisposedException()
    {
        var store = OpenFeed();
        store.Put("a/1"u8, [1]);
        using var timeout = Deadline();
        await using var subscription = store.Watch("a/"u8, afterSequence: 0, timeout.Token).GetAsyncEnumerator(timeout.Token);
        Assert.True(await subscription.MoveNextAsync());
        var waiting = subscription.MoveNextAsync().AsTask();
        await Task.Delay(200, timeout.Token);
        Assert.False(waiting.IsCompleted);

        var clock = System.Diagnostics.Stopwatch.StartNew();
        store.Dispose();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => waiting);
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(3), $"the subscription ended {clock.Elapsed} after Dispose, not at once");
    }

    [Fact]
    public void A_store_created_with_the_feed_off_refuses_Watch_and_an_open_asking_for_it()
    {
        RequireFeed();
        var store = Open();
        Assert.Throws<InvalidOperationException>(() => store.Watch("a/"u8, cancellationToken: TestContext.Current.CancellationToken));
        store.Dispose();

        var error = Assert.ThrowsAny<DataStoreException>(() => Open(o => o.ChangeFeed = true));
        Assert.Contains("change feed off", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_backend_without_a_change_feed_refuses_to_create_a_store_with_it_and_refuses_Watch_naming_why()
    {
        if (ChangeFeedSupport.Has(Backend))
        {
            Assert.Skip($"{Backend} has a change feed; this rule is about the backends that do not.");
        }

        var refused = Assert.Throws<ArgumentException>(() => Open(o => o.ChangeFeed = true));
        Assert.Contains($"The {Backend} backend has no change feed", refused.Message, StringComparison.Ordinal);
        Assert.False(System.IO.Directory.Exists(StorePath), "a refused open created the store directory");

        var store = Open();
        var error = Assert.Throws<NotSupportedException>(() => store.Watch("a/"u8, cancellationToken: TestContext.Current.CancellationToken));
        Assert.Contains($"The {Backend} backend has no change feed", error.Message, StringComparison.Ordinal);
    }

    /// <summary>How many commits the cross-process rule makes in CI (<c>DATASTORE_FEED_COMMITS</c> overrides it).</summary>
    protected virtual int CiCommits => 2000;

    /// <summary>The durability the store is created with (the manifest's, so the child processes write with it too).</summary>
    protected virtual Durability FeedDurability => Durability.Relaxed;

    /// <summary>Creates the store with the change feed on (the manifest's setting, so child processes log too).</summary>
    protected IKeyValueStore OpenFeed(int retention = ChangeFeedSettings.DefaultRetention)
    {
        RequireFeed();
        var store = Open(o =>
        {
            o.ChangeFeed = true;
            o.ChangeFeedRetention = retention;
            o.Durability = FeedDurability;
        });
        Assert.Equal(FeedDurability, store.Durability);
        return store;
    }

    private void RequireFeed()
    {
        if (!ChangeFeedSupport.Has(Backend))
        {
            Assert.Skip($"{ChangeFeedSupport.WhyNot(Backend)}; rule '13: the change feed' is skipped on it.");
        }
    }

    private static CancellationTokenSource Deadline()
    {
        var deadline = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        deadline.CancelAfter(Patience);
        return deadline;
    }

    private string[] Args(string command, params string[] rest) => [command, StorePath, Backend.ToString(), "-", .. rest];

    private static async Task<List<StoreChange>> Collect(IKeyValueStore store, string prefix, long? after, int count)
    {
        using var timeout = Deadline();
        var events = new List<StoreChange>();
        await foreach (var change in store.Watch(Encoding.UTF8.GetBytes(prefix), after, timeout.Token))
        {
            events.Add(change);
            if (events.Count == count)
            {
                break;
            }
        }

        return events;
    }

    // Events k = 0.. are commits first, first + 1, ... with sequences after + 1, after + 2, ... and the workload's changes.
    private static void AssertCommits(IReadOnlyList<StoreChange> events, long after, int first)
    {
        for (var k = 0; k < events.Count; k++)
        {
            var change = events[k];
            Assert.True(change.Kind == StoreChangeKind.Commit && change.Sequence == after + k + 1,
                $"event {k}: expected commit {after + k + 1}, got {change.Kind} {change.Sequence}");
            Assert.Equal(FeedWorkload.Changes(first + k), change.Changes.Select(Describe));
        }
    }

    private static (KeyChangeKind Kind, string Key, string End) Describe(KeyChange change) =>
        (change.Kind, Encoding.UTF8.GetString(change.Key), Encoding.UTF8.GetString(change.End));
}

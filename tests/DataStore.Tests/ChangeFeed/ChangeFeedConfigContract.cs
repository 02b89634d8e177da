using System.Text;
using DataStore.ChangeFeed;
using DataStore.Tests.Conformance;
using DataStore.TestHost;

namespace DataStore.Tests.ChangeFeed;

/// <summary>
/// Rule 13, turning the feed on or off for an existing store (ADR 0020): refused while another process (a real child, which
/// holds the store's open lock) has the store open, accepted once it is gone (killed with kill -9: the OS drops its lock); off
/// stops logging and refuses Watch; on again continues the sequence, and a position saved before is told to resynchronize.
/// </summary>
public abstract class ChangeFeedConfigContract : StoreContract
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);

    [Fact]
    public async Task The_feed_turned_off_and_on_again_is_refused_while_another_process_has_the_store_open_and_continues_its_sequence()
    {
        RequireFeed();
        var store = Open(o => o.ChangeFeed = true);
        store.Dispose();
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "5")).ExitCode);

        AssertRefusedWhileHeld(enabled: false);
        var off = StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: false);
        // Off gives the version older DataStores open (2); a Sqlite store keeps 4, which its page checksums set, not the feed.
        var withoutFeed = Backend == StoreBackend.Sqlite ? 4 : 2;
        Assert.True(off.Changed && !off.Enabled && off.FormatVersion == withoutFeed, $"off: changed {off.Changed}, enabled {off.Enabled}, format {off.FormatVersion}");

        store = Open();
        var watch = Assert.Throws<InvalidOperationException>(() => store.Watch("w/"u8, cancellationToken: TestContext.Current.CancellationToken));
        Assert.Contains("change feed off", watch.Message, StringComparison.Ordinal);
        store.Put("w/while-off"u8, [1]); // not logged: the sequence below does not move
        store.Dispose();

        AssertRefusedWhileHeld(enabled: true);
        var on = StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: true, retention: 50);
        Assert.True(on.Changed && on.Enabled && on.Retention == 50 && on.FormatVersion == Math.Max(withoutFeed, 3), $"on: changed {on.Changed}, enabled {on.Enabled}, retention {on.Retention}, format {on.FormatVersion}");

        store = Open();
        Assert.Equal(5, store.ChangeSequence());
        using var timeout = Deadline();
        await using var subscription = store.Watch(Encoding.UTF8.GetBytes(FeedWorkload.Prefix), afterSequence: 5, timeout.Token).GetAsyncEnumerator(timeout.Token);
        Assert.True(await subscription.MoveNextAsync());
        Assert.Equal((StoreChangeKind.Resynchronize, 5L), (subscription.Current.Kind, subscription.Current.Sequence)); // the write made while off has no record

        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "6", "6")).ExitCode);
        Assert.True(await subscription.MoveNextAsync());
        Assert.Equal((StoreChangeKind.Commit, 6L), (subscription.Current.Kind, subscription.Current.Sequence));
    }

    [Fact]
    public async Task The_feed_turned_on_for_a_store_created_without_it_logs_the_next_commit_of_another_process()
    {
        RequireFeed();
        var store = Open();
        store.Put("w/before"u8, [1]);
        store.Dispose();

        if (Backend == StoreBackend.Lmdb)
        {
            var refused = Assert.Throws<DataStoreException>(() => StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: true));
            Assert.Contains("datastore migrate", refused.Message, StringComparison.Ordinal);
            Assert.False(StoreConfiguration.ReadChangeFeed(StorePath).Enabled);
            Assert.Equal([1], Open().Get("w/before"u8));
            return;
        }

        var on = StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: true);
        Assert.True(on.Enabled && on.Retention == ChangeFeedSettings.DefaultRetention, $"enabled {on.Enabled}, retention {on.Retention}");
        store = Open();
        Assert.Equal(0, store.ChangeSequence());
        var watching = FirstCommit(store);
        Assert.Equal(0, ChildProcess.Run(Args("feed-writes", "1", "1")).ExitCode);
        Assert.Equal(1, (await watching).Sequence);
        Assert.Equal([1], store.Get("w/before"u8));
    }

    [Fact]
    public void Changing_the_retention_alone_keeps_the_feed_and_asking_for_what_the_store_has_changes_nothing()
    {
        RequireFeed();
        Open(o => o.ChangeFeed = true).Dispose();

        var same = StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: true);
        var retention = StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: null, retention: 7);

        Assert.False(same.Changed);
        Assert.True(retention.Changed && retention.Enabled && retention.Retention == 7, $"changed {retention.Changed}, retention {retention.Retention}");
        Assert.Equal(7, StoreConfiguration.ReadChangeFeed(StorePath).Retention);
        Assert.Throws<ArgumentException>(() => StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: false, retention: 3));
    }

    /// <remarks>Two rounds in CI; the soak is <c>DATASTORE_CONFIG_KILL_ROUNDS=50</c> (<c>DATASTORE_CONFIG_KILL_SEED=n</c> replays a run).</remarks>
    [Fact]
    public void A_config_process_killed_with_kill_9_at_a_random_moment_leaves_a_store_that_opens_with_the_old_or_the_new_setting()
    {
        RequireFeed();
        var rounds = int.Parse(Environment.GetEnvironmentVariable("DATASTORE_CONFIG_KILL_ROUNDS") ?? "2", System.Globalization.CultureInfo.InvariantCulture);
        var seed = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_CONFIG_KILL_SEED"), out var given) ? given : Random.Shared.Next();
        var random = new Random(seed);
        Open(o => o.ChangeFeed = true).Dispose();
        for (var round = 1; round <= rounds; round++)
        {
            var context = $"seed {seed}, round {round}";
            var before = StoreConfiguration.ReadChangeFeed(StorePath).Enabled;
            using (var config = ChildProcess.Start(Args("config-feed", before ? "off" : "on")))
            {
                config.WaitForLine(line => line == "CONFIGURING", Patience);
                Thread.Sleep(random.Next(150));
                config.KillHard();
            }

            var after = StoreConfiguration.ReadChangeFeed(StorePath).Enabled;
            var store = Open();
            store.Put(Encoding.UTF8.GetBytes($"w/round{round}"), [1]);
            if (after)
            {
                Assert.True(store.ChangeSequence() > 0, $"{context}: the feed is on ({(before ? "before" : "after")} the kill), but the write has no record");
            }
            else
            {
                Assert.Throws<InvalidOperationException>(() => store.Watch("w/"u8, cancellationToken: TestContext.Current.CancellationToken));
            }

            Assert.Equal([1], store.Get(Encoding.UTF8.GetBytes($"w/round{round}")));
            store.Dispose();
        }
    }

    /// <summary>The change asked for fails, naming the other process, and changes nothing, while a child has the store open.</summary>
    private void AssertRefusedWhileHeld(bool enabled)
    {
        var before = StoreConfiguration.ReadChangeFeed(StorePath);
        using (var holder = ChildProcess.Start(Args("hold-open", "120000")))
        {
            holder.WaitForLine(line => line.StartsWith("HOLDING", StringComparison.Ordinal), Patience);
            var refused = Assert.Throws<DataStoreException>(() => StoreConfiguration.ConfigureChangeFeed(StorePath, enabled));
            Assert.Equal(StoreFailure.Unavailable, refused.Cause);
            Assert.Contains("other processes have it open", refused.Message, StringComparison.Ordinal);
            Assert.Equal(before.Enabled, StoreConfiguration.ReadChangeFeed(StorePath).Enabled);
            holder.KillHard();
        }
    }

    private async Task<StoreChange> FirstCommit(IKeyValueStore store)
    {
        using var timeout = Deadline();
        await foreach (var change in store.Watch(Encoding.UTF8.GetBytes(FeedWorkload.Prefix), 0, timeout.Token))
        {
            return change;
        }

        throw new InvalidOperationException("the watch ended");
    }

    private void RequireFeed()
    {
        if (!ChangeFeedSupport.Has(Backend))
        {
            Assert.Skip($"{ChangeFeedSupport.WhyNot(Backend)}; rule '13: turning the change feed on or off' is skipped on it.");
        }
    }

    private string[] Args(string command, params string[] rest) => [command, StorePath, Backend.ToString(), "-", .. rest];

    private static CancellationTokenSource Deadline()
    {
        var deadline = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        deadline.CancelAfter(Patience);
        return deadline;
    }
}

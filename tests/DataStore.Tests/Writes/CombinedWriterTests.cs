using System.Text;
using DataStore.Writes;

namespace DataStore.Tests.Writes;

/// <summary>
/// The leader loop shared by the Sqlite and Lmdb writers (<see cref="CombinedWriter{TErrors}"/>), over a fake backend
/// part: who shares a transaction, in which order, what each caller gets when a write or the writer fails, and how
/// leadership passes on. The backends' own combining tests (SqliteWriteCombiningTests, LmdbWriteCombiningTests) hold
/// the same rules against the engines, with another process holding the writer.
/// </summary>
public sealed class CombinedWriterTests
{
    private static readonly FakeWriteErrors Errors = new(QueuedWriters.Wait);

    private readonly CombinedWriter<FakeWriteErrors> _writer = new();
    private readonly FakeWriteGroupRunner _runner = new();

    [Fact]
    public async Task Writers_queued_behind_the_leader_share_one_commit_in_arrival_order_and_the_same_ticket()
    {
        var outcomes = await QueueWhileTheLeaderWaits(Put("a"), Put("b"), Put("c"));

        Assert.Equal(["a b c"], _runner.Transactions);
        Assert.Equal(1, _writer.CombinedCommits);
        Assert.All(outcomes, o => Assert.Null(o.Error));
        Assert.Equal([1L, 1L, 1L], outcomes.Select(o => o.Ticket));
        Assert.Equal(3, _runner.Store.Count);
    }

    [Fact]
    public async Task A_failed_precondition_fails_only_its_batch_and_sees_the_writes_queued_ahead_of_it()
    {
        var batch = new WriteBatch().RequireAbsent("x"u8).Put("y"u8, "v"u8);
        var outcomes = await QueueWhileTheLeaderWaits(Put("x"), () => Write(WriteKind.Batch, "", batch), Put("z"));

        Assert.Equal(["x y z"], _runner.Transactions);
        Assert.Equal(1, _writer.CombinedCommits);
        Assert.Equal([-1L, 0L, -1L], outcomes.Select(o => o.Result));
        Assert.Equal([1L, 0L, 1L], outcomes.Select(o => o.Ticket)); // the failed batch committed nothing: no sync to wait for
        Assert.Equal(["x", "z"], _runner.Store.Keys.Order());
    }

    [Fact]
    public async Task A_write_that_fails_in_a_shared_transaction_fails_alone_and_the_others_commit()
    {
        var damage = new StoreFormatException(StoreFailure.Corrupt, "fake", StoreBackend.Sqlite, "a damaged pair");
        _runner.Failures["bad"] = () => damage;
        var outcomes = await QueueWhileTheLeaderWaits(Put("a"), Put("bad"), Put("c"));

        Assert.Equal(["a bad", "a", "bad", "c"], _runner.Transactions); // the shared one stopped at the failure
        Assert.Equal(0, _writer.CombinedCommits);
        Assert.Null(outcomes[0].Error);
        Assert.Same(damage, outcomes[1].Error);
        Assert.Null(outcomes[2].Error);
        Assert.Equal(["a", "c"], _runner.Store.Keys.Order());
        Assert.Equal([1L, 0L, 2L], outcomes.Select(o => o.Ticket));
    }

    [Fact]
    public async Task A_timeout_inside_a_shared_transaction_fails_the_whole_group_at_once()
    {
        _runner.Failures["slow"] = Errors.TimedOut;
        var outcomes = await QueueWhileTheLeaderWaits(Put("a"), Put("slow"), Put("c"));

        Assert.Equal(["a slow"], _runner.Transactions); // not run again alone: each would only wait again
        Assert.All(outcomes, o => Assert.IsType<StoreTimeoutException>(o.Error));
        Assert.Empty(_runner.Store);
    }

    [Fact]
    public async Task A_leader_that_cannot_take_the_writer_fails_alone_and_the_next_caller_leads()
    {
        _runner.EnterFailure = Errors.TimedOut();
        var outcomes = await QueueWhileTheLeaderWaits(Put("a"), Put("b"), Put("c"));

        Assert.IsType<StoreTimeoutException>(outcomes[0].Error);
        Assert.Equal(["b c"], _runner.Transactions);
        Assert.Null(outcomes[1].Error);
        Assert.Null(outcomes[2].Error);
    }

    [Fact]
    public async Task A_caller_no_leader_took_in_time_times_out_alone()
    {
        var impatient = new FakeWriteErrors(TimeSpan.FromMilliseconds(100));
        _runner.EnterOpen.Reset();
        var leader = Start(Put("a"));
        await WaitUntilQueued(1);
        var late = await Start(() => Write(WriteKind.Put, "late", null, impatient));
        Assert.IsType<StoreTimeoutException>(late.Error);
        Assert.Equal(1, _writer.PendingWrites); // withdrawn: only the leader is left

        _runner.EnterOpen.Set();
        Assert.Null((await leader).Error);
        Assert.Equal(["a"], _runner.Transactions);
    }

    [Fact]
    public async Task A_group_takes_at_most_64_writers_and_the_next_caller_leads_the_rest_in_order()
    {
        var names = Enumerable.Range(0, 70).Select(i => $"w{i:00}").ToArray();
        var outcomes = await QueueWhileTheLeaderWaits(names.Select(n => Put(n)).ToArray());

        Assert.All(outcomes, o => Assert.Null(o.Error));
        var transactions = _runner.Transactions;
        Assert.Equal(2, transactions.Count);
        Assert.InRange(transactions[0].Split(' ').Length, WriteQueue<FakeWriteErrors>.MaxGroup - 1, WriteQueue<FakeWriteErrors>.MaxGroup);
        Assert.Equal(string.Join(' ', names), string.Join(' ', transactions));
    }

    [Fact]
    public async Task A_group_takes_no_more_writers_once_it_carries_4_MiB()
    {
        var value = new string('v', 1 << 20);
        var outcomes = await QueueWhileTheLeaderWaits(Enumerable.Range(0, 6).Select(i => Put($"m{i}", value)).ToArray());

        Assert.All(outcomes, o => Assert.Null(o.Error));
        Assert.Equal(["m0 m1 m2 m3", "m4 m5"], _runner.Transactions); // 4 MiB and 8 bytes of keys: no fifth
    }

    [Fact]
    public async Task Callers_that_queue_while_a_group_commits_are_led_by_one_of_them_once_the_leader_returns()
    {
        _runner.CommitOpen.Reset();
        var first = Start(Put("a"));
        await WaitUntil(() => _runner.CommitEntered.IsSet); // a leads: its group taken, its commit held
        var later = new List<Task<Outcome>> { Start(Put("b")) };
        await WaitUntilQueued(1);
        later.Add(Start(Put("c")));
        await WaitUntilQueued(2);

        _runner.CommitOpen.Set();
        Assert.Null((await first).Error);
        Assert.All(await Task.WhenAll(later), o => Assert.Null(o.Error));
        Assert.Equal(["a", "b c"], _runner.Transactions);
    }

    [Fact]
    public async Task A_leader_keeps_the_lead_through_its_groups_sync_and_the_callers_who_came_meanwhile_share_the_next_commit()
    {
        _runner.SyncOpen.Reset();
        var first = Start(Put("a"));
        await WaitUntil(() => _runner.SyncEntered.IsSet); // a committed and waits for the sync of ticket 1
        var later = new List<Task<Outcome>>();
        foreach (var key in new[] { "b", "c" })
        {
            later.Add(Start(Put(key)));
            await WaitUntil(() => _writer.PendingWrites == later.Count || _runner.Transactions.Count > 1);
        }

        Assert.Equal(["a"], _runner.Transactions); // b and c wait for the lead instead of committing for the same next sync
        Assert.False(first.IsCompleted, "a returned before the sync of its commit");

        _runner.SyncOpen.Set();
        Assert.Equal(1, (await first).Ticket);
        Assert.All(await Task.WhenAll(later), o => Assert.Equal(2, o.Ticket));
        Assert.Equal(["a", "b c"], _runner.Transactions);
        Assert.Equal([1L, 2L], _runner.SyncedTickets);
    }

    [Fact]
    public async Task A_sync_that_fails_in_the_leaders_wait_fails_no_callers_write()
    {
        _runner.SyncFailure = new IOException("the disk is gone");
        var outcomes = await QueueWhileTheLeaderWaits(Put("a"), Put("b"));

        Assert.All(outcomes, o => Assert.Null(o.Error)); // each caller's own wait for its ticket reports a failed sync
        Assert.Equal([1L], _runner.SyncedTickets);
        Assert.Equal(2, _runner.Store.Count);
    }

    // Starts the writes in order, each queued before the next starts, while the first waits to take the writer.
    private async Task<Outcome[]> QueueWhileTheLeaderWaits(params Func<Outcome>[] writes)
    {
        _runner.EnterOpen.Reset();
        var tasks = new List<Task<Outcome>>();
        foreach (var write in writes)
        {
            tasks.Add(Start(write));
            await WaitUntilQueued(tasks.Count);
        }

        _runner.EnterOpen.Set();
        return await Task.WhenAll(tasks).WaitAsync(QueuedWriters.Wait, TestContext.Current.CancellationToken);
    }

    private static Task<Outcome> Start(Func<Outcome> write) =>
        Task.Factory.StartNew(write, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private Task WaitUntilQueued(int count) => WaitUntil(() => _writer.PendingWrites >= count);

    // Waits on the test's own thread (no await): under load the thread pool may not run a continuation within the wait.
    private static Task WaitUntil(Func<bool> condition)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(clock.Elapsed < QueuedWriters.Wait, "the writers did not get where the test needs them");
            Thread.Sleep(2);
        }

        return Task.CompletedTask;
    }

    private Func<Outcome> Put(string key, string value = "v") => () => Write(WriteKind.Put, key, null, Errors, value);

    private Outcome Write(WriteKind kind, string key, WriteBatch? batch, FakeWriteErrors? errors = null, string value = "v")
    {
        try
        {
            var result = _writer.Write(_runner, errors ?? Errors, kind, Encoding.ASCII.GetBytes(key), Encoding.ASCII.GetBytes(value), batch, out var ticket);
            return new Outcome(result, ticket, null);
        }
        catch (Exception e)
        {
            return new Outcome(-1, 0, e);
        }
    }

    private sealed record Outcome(long Result, long Ticket, Exception? Error);
}

using System.Text;
using DataStore.Batches;
using DataStore.Writes;

namespace DataStore.Tests.Writes;

/// <summary>The fake backend's errors: the caller's timeout, and the timeout exception it gets.</summary>
internal sealed class FakeWriteErrors(TimeSpan timeout) : IWriteErrors
{
    public TimeSpan Timeout => timeout;

    public StoreTimeoutException TimedOut() => new("fake", StoreBackend.Sqlite, timeout);
}

/// <summary>
/// A backend part for <see cref="CombinedWriter{TErrors}"/> over a dictionary: each transaction works on a copy that
/// replaces the store only when it commits. Puts and batches (their <c>RequireAbsent</c> preconditions and puts) are
/// understood; a write whose key is in <see cref="Failures"/> throws that exception. Every transaction tried is recorded
/// as its keys, in order, and every ticket a leader waits to see synced. <see cref="EnterOpen"/>, <see cref="CommitOpen"/>
/// and <see cref="SyncOpen"/> hold a leader where a test needs it.
/// </summary>
internal sealed class FakeWriteGroupRunner : IWriteGroupRunner<FakeWriteErrors>
{
    private readonly object _gate = new();
    private readonly List<string> _transactions = [];
    private readonly List<long> _syncedTickets = [];
    private Dictionary<string, string> _store = [];
    private long _ticket;

    /// <summary>A leader waits in Enter until this is set.</summary>
    public ManualResetEventSlim EnterOpen { get; } = new(true);

    /// <summary>A leader waits in Commit until this is set.</summary>
    public ManualResetEventSlim CommitOpen { get; } = new(true);

    /// <summary>Set once a leader has come into Commit.</summary>
    public ManualResetEventSlim CommitEntered { get; } = new(false);

    /// <summary>A leader waits in WaitForSync until this is set.</summary>
    public ManualResetEventSlim SyncOpen { get; } = new(true);

    /// <summary>Set once a leader has come into WaitForSync.</summary>
    public ManualResetEventSlim SyncEntered { get; } = new(false);

    /// <summary>When set, WaitForSync throws it (after waiting for <see cref="SyncOpen"/>).</summary>
    public Exception? SyncFailure { get; set; }

    /// <summary>The tickets leaders waited for in WaitForSync, in order.</summary>
    public IReadOnlyList<long> SyncedTickets
    {
        get
        {
            lock (_gate)
            {
                return [.. _syncedTickets];
            }
        }
    }

    /// <summary>When set, the next Enter throws it (after waiting for <see cref="EnterOpen"/>).</summary>
    public Exception? EnterFailure { get; set; }

    /// <summary>Keys whose write throws the given exception inside any transaction.</summary>
    public Dictionary<string, Func<Exception>> Failures { get; } = [];

    /// <summary>Every transaction tried, as its writes' keys joined by spaces.</summary>
    public IReadOnlyList<string> Transactions
    {
        get
        {
            lock (_gate)
            {
                return [.. _transactions];
            }
        }
    }

    /// <summary>The committed pairs.</summary>
    public IReadOnlyDictionary<string, string> Store
    {
        get
        {
            lock (_gate)
            {
                return new Dictionary<string, string>(_store);
            }
        }
    }

    public void Enter(QueuedWrite<FakeWriteErrors> leader, long started)
    {
        Assert.True(EnterOpen.Wait(QueuedWriters.Wait), "the test never let the leader in");
        if (EnterFailure is { } failure)
        {
            EnterFailure = null;
            throw failure;
        }
    }

    public void Exit()
    {
    }

    public long Commit(List<QueuedWrite<FakeWriteErrors>> group, int start, int count)
    {
        CommitEntered.Set();
        Assert.True(CommitOpen.Wait(QueuedWriters.Wait), "the test never let the commit run");
        var staged = new Dictionary<string, string>(Store);
        var keys = new List<string>();
        try
        {
            for (var i = start; i < start + count; i++)
            {
                keys.Add(Key(group[i]));
                if (Failures.TryGetValue(keys[^1], out var fail))
                {
                    throw fail();
                }

                group[i].Result = Apply(group[i], staged);
            }
        }
        finally
        {
            lock (_gate)
            {
                _transactions.Add(string.Join(' ', keys));
            }
        }

        if (!group.Skip(start).Take(count).Any(w => w.Wrote))
        {
            return 0;
        }

        lock (_gate)
        {
            _store = staged;
            return ++_ticket;
        }
    }

    public void WaitForSync(long ticket)
    {
        lock (_gate)
        {
            _syncedTickets.Add(ticket);
        }

        SyncEntered.Set();
        Assert.True(SyncOpen.Wait(QueuedWriters.Wait), "the test never let the sync finish");
        if (SyncFailure is { } failure)
        {
            throw failure;
        }
    }

    /// <summary>A write's name: its key, or a batch's first put's key.</summary>
    public static string Key(QueuedWrite<FakeWriteErrors> write) =>
        Encoding.ASCII.GetString(write.Batch is { } batch ? batch.First(batch.Operation(0)) : write.First);

    private static long Apply(QueuedWrite<FakeWriteErrors> write, Dictionary<string, string> staged)
    {
        if (write.Batch is not { } batch)
        {
            staged[Key(write)] = Encoding.ASCII.GetString(write.Second);
            return -1;
        }

        for (var p = 0; p < batch.PreconditionCount; p++)
        {
            var condition = batch.Precondition(p);
            if (condition.Kind == BatchEntryKind.RequireAbsent && staged.ContainsKey(Encoding.ASCII.GetString(batch.First(condition))))
            {
                return p;
            }
        }

        for (var i = 0; i < batch.OperationCount; i++)
        {
            var operation = batch.Operation(i);
            staged[Encoding.ASCII.GetString(batch.First(operation))] = Encoding.ASCII.GetString(batch.Second(operation));
        }

        return -1;
    }
}

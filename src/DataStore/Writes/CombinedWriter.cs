using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace DataStore.Writes;

/// <summary>
/// Combines concurrent writers (ADR 0002, ADR 0006): callers that queue while another writes are run by one of them,
/// the leader, in one engine transaction and one commit, so they share its commit and, when Durable, its sync. The loop
/// is the same for every backend; the backend's <see cref="IWriteGroupRunner{TErrors}"/> takes the writer and runs one
/// transaction. Each caller gets its own outcome:
/// <list type="bullet">
/// <item>its own result (keys removed, or a failed precondition's index: a batch checks its preconditions before it
/// writes anything, so a failed one writes nothing while the others commit);</item>
/// <item>any other failure in a shared transaction (a damaged pair, a full disk) rolls it back and runs each write again
/// alone, so one bad write cannot fail another; a timeout waiting for the writer (which each write alone would only
/// repeat), or an error that is not the store's, fails the whole group at once;</item>
/// <item>a leader that cannot take the writer fails alone, and the next waiting caller leads.</item>
/// </list>
/// </summary>
internal sealed class CombinedWriter<TErrors>
    where TErrors : class, IWriteErrors
{
    private readonly WriteQueue<TErrors> _queue = new();
    private long _combinedCommits;

    /// <summary>How many commits carried more than one caller's write (for tests and diagnostics).</summary>
    public long CombinedCommits => Volatile.Read(ref _combinedCommits);

    /// <summary>How many callers wait for the writer now (for tests).</summary>
    public int PendingWrites => _queue.Pending;

    /// <summary>
    /// Runs the write through <paramref name="runner"/> (the same one on every call), alone or with others queued at the
    /// same moment; returns its result (keys removed, a failed precondition's index, or -1) and the commit's ticket for
    /// the group sync (0 when it wrote nothing). The caller's exception is thrown on the caller's thread.
    /// </summary>
    public unsafe long Write(IWriteGroupRunner<TErrors> runner, TErrors errors, WriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket)
    {
        var started = Stopwatch.GetTimestamp();
        fixed (byte* f = first, s = second)
        {
            var write = QueuedWrite<TErrors>.ForThisThread(errors, kind, f, first.Length, s, second.Length, batch);
            try
            {
                if (_queue.Join(write, started))
                {
                    Lead(runner, write, started);
                }

                write.Failure?.Throw();
                ticket = write.Ticket;
                return write.Result;
            }
            finally
            {
                write.Clear();
            }
        }
    }

    // The leader takes the writer (waiting for other processes' writers), then every waiting caller's write, callers
    // that queued during that wait included, and runs them; lets the writer go, waits for the group's sync (so its callers
    // find it done and are woken once), then hands the lead on, whatever happened, and each caller its outcome. Keeping
    // the lead through the sync lets the callers who come meanwhile gather into the next transaction; a lead handed on
    // right after the commit made several small transactions (about two puts each at 32 Durable writers) wait for the same
    // next sync, each paying its own commit.
    private void Lead(IWriteGroupRunner<TErrors> runner, QueuedWrite<TErrors> leader, long started)
    {
        var group = leader.Group;
        group.Clear();
        var tookGroup = false;
        Exception? failure = null;
        try
        {
            runner.Enter(leader, started);
            try
            {
                _queue.TakeGroup(leader, group);
                tookGroup = true;
                RunGroup(runner, group);
            }
            finally
            {
                runner.Exit();
            }
        }
        catch (Exception e)
        {
            failure = e;
        }

        if (!tookGroup)
        {
            _queue.Withdraw(leader);
            leader.Failure = failure is null ? null : ExceptionDispatchInfo.Capture(failure);
            _queue.HandOver();
            return;
        }

        if (failure is null)
        {
            WaitForSync(runner, group);
        }

        _queue.HandOver();
        WriteQueue<TErrors>.Complete(leader, group, failure);
        group.Clear();
    }

    // Best effort: each caller still waits for its own ticket's sync, and a failed sync reaches it there.
    private static void WaitForSync(IWriteGroupRunner<TErrors> runner, List<QueuedWrite<TErrors>> group)
    {
        long ticket = 0;
        foreach (var write in group)
        {
            ticket = Math.Max(ticket, write.Failure is null ? write.Ticket : 0);
        }

        if (ticket == 0)
        {
            return;
        }

        try
        {
            runner.WaitForSync(ticket);
        }
        catch (Exception)
        {
            // Each caller's own wait for the sync reports it.
        }
    }

    // One transaction for the whole group; if it fails with the store's error (not a timeout), nothing was committed and
    // each write runs again alone, its failure its own.
    private void RunGroup(IWriteGroupRunner<TErrors> runner, List<QueuedWrite<TErrors>> group)
    {
        if (group.Count > 1)
        {
            try
            {
                Commit(runner, group, 0, group.Count);
                _combinedCommits++;
                return;
            }
            catch (DataStoreException e) when (e is not StoreTimeoutException)
            {
                // Rolled back; below, each write runs alone.
            }
        }

        for (var i = 0; i < group.Count; i++)
        {
            try
            {
                Commit(runner, group, i, 1);
            }
            catch (Exception e)
            {
                group[i].Failure = ExceptionDispatchInfo.Capture(e);
            }
        }
    }

    private static void Commit(IWriteGroupRunner<TErrors> runner, List<QueuedWrite<TErrors>> group, int start, int count)
    {
        var ticket = runner.Commit(group, start, count);
        for (var i = start; i < start + count; i++)
        {
            group[i].Ticket = group[i].Wrote ? ticket : 0;
        }
    }
}

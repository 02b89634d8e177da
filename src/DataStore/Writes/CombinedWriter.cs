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
    private readonly List<QueuedWrite<TErrors>> _group = new(WriteQueue<TErrors>.MaxGroup);
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
    // that queued during that wait included, and runs them; then it hands leadership on, whatever happened.
    private void Lead(IWriteGroupRunner<TErrors> runner, QueuedWrite<TErrors> leader, long started)
    {
        List<QueuedWrite<TErrors>>? group = null;
        Exception? failure = null;
        try
        {
            runner.Enter(leader, started);
            try
            {
                _group.Clear();
                _queue.TakeGroup(leader, _group);
                group = _group;
                RunGroup(runner);
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
        finally
        {
            _queue.Finish(leader, group, failure);
        }
    }

    // One transaction for the whole group; if it fails with the store's error (not a timeout), nothing was committed and
    // each write runs again alone, its failure its own.
    private void RunGroup(IWriteGroupRunner<TErrors> runner)
    {
        if (_group.Count > 1)
        {
            try
            {
                Commit(runner, 0, _group.Count);
                _combinedCommits++;
                return;
            }
            catch (DataStoreException e) when (e is not StoreTimeoutException)
            {
                // Rolled back; below, each write runs alone.
            }
        }

        for (var i = 0; i < _group.Count; i++)
        {
            try
            {
                Commit(runner, i, 1);
            }
            catch (Exception e)
            {
                _group[i].Failure = ExceptionDispatchInfo.Capture(e);
            }
        }
    }

    private void Commit(IWriteGroupRunner<TErrors> runner, int start, int count)
    {
        var ticket = runner.Commit(_group, start, count);
        for (var i = start; i < start + count; i++)
        {
            _group[i].Ticket = _group[i].Wrote ? ticket : 0;
        }
    }
}

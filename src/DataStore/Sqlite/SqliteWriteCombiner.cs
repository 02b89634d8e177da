using System.Diagnostics;
using DataStore.Sync;
using DataStore.Writes;

namespace DataStore.Sqlite;

/// <summary>
/// Combines concurrent writers (ADR 0002): callers that queue behind the writer while another writes are run by one
/// of them, the leader, in one SQLite transaction and one commit, so they share its WAL append, its lock hand-over and,
/// when Durable, its sync. Each caller gets its own result: a batch whose precondition fails writes nothing while the
/// others commit, and any other failure in a shared transaction rolls it back and runs each write again alone, so one
/// bad write cannot fail another. A caller that finds no one ahead of it commits its write alone.
/// </summary>
internal sealed class SqliteWriteCombiner(SqliteWriter writer, StoreWriterLock writeLock, Func<long> committed)
{
    private readonly WriteQueue<SqliteWriteRequest> _queue = new();
    private readonly List<SqliteWriteRequest> _group = new(WriteQueue<SqliteWriteRequest>.MaxGroup);
    private long _combinedCommits;

    /// <summary>How many commits carried more than one caller's write (for tests and diagnostics).</summary>
    public long CombinedCommits => Volatile.Read(ref _combinedCommits);

    /// <summary>How many callers wait for the writer now (for tests).</summary>
    public int PendingWrites => _queue.Pending;

    /// <summary>
    /// Runs the write, alone or with others queued at the same moment; returns its result (keys removed, a failed
    /// precondition's index, or -1) and the commit's ticket for the WAL sync (0 when it wrote nothing).
    /// </summary>
    public unsafe long Write(SqliteErrors errors, SqliteWriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket)
    {
        var started = Stopwatch.GetTimestamp();
        fixed (byte* f = first, s = second)
        {
            var request = SqliteWriteRequest.ForThisThread(errors, kind, f, first.Length, s, second.Length, batch);
            try
            {
                if (_queue.Join(request, started))
                {
                    Lead(request);
                }

                request.Failure?.Throw();
                ticket = request.Ticket;
                return request.Result;
            }
            finally
            {
                request.Clear();
            }
        }
    }

    // The leader takes the store's write lock and SQLite's (waiting for other processes' writers), then every waiting
    // caller's write, callers that queued during that wait included, and runs them.
    private void Lead(SqliteWriteRequest leader)
    {
        List<SqliteWriteRequest>? group = null;
        Exception? failure = null;
        try
        {
            using (writeLock.Enter())
            {
                writer.Begin();
                _group.Clear();
                _queue.TakeGroup(leader, _group);
                group = _group;
                WriteGroupLocked();
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

    // One transaction for the whole group. If it fails for any reason but waiting for the writer past the timeout
    // (which each write alone would only repeat), nothing was committed and each write runs again alone.
    private void WriteGroupLocked()
    {
        try
        {
            Commit(0, _group.Count);
            if (_group.Count > 1)
            {
                _combinedCommits++;
            }

            return;
        }
        catch (DataStoreException e) when (_group.Count > 1 && e is not StoreTimeoutException)
        {
            // Rolled back; below, each write runs alone.
        }

        for (var i = 0; i < _group.Count; i++)
        {
            try
            {
                writer.Begin();
                Commit(i, 1);
            }
            catch (Exception e)
            {
                _group[i].Failure = System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(e);
            }
        }
    }

    private void Commit(int start, int count)
    {
        if (!writer.WriteGroup(_group, start, count))
        {
            return;
        }

        var ticket = committed();
        for (var i = start; i < start + count; i++)
        {
            _group[i].Ticket = _group[i].Wrote ? ticket : 0;
        }
    }
}

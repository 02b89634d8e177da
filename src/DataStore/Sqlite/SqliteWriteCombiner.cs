using DataStore.Sync;
using DataStore.Writes;

namespace DataStore.Sqlite;

/// <summary>
/// The Sqlite part of combined writes (ADR 0002; the loop and each caller's outcome: <see cref="CombinedWriter{TErrors}"/>):
/// the leader takes the store's write lock and SQLite's (<c>BEGIN IMMEDIATE</c>, waiting for other processes' writers
/// up to the busy timeout, so callers that queue meanwhile join its transaction), and a group of callers' writes runs
/// in one transaction and one commit on the writer connection, sharing its WAL append, its lock hand-over and, when
/// Durable, its sync. A caller that finds no one ahead of it commits its write alone.
/// </summary>
/// <remarks><paramref name="waitForSync"/> is a Durable store's wait for a ticket's WAL sync (null when Relaxed).</remarks>
internal sealed class SqliteWriteCombiner(SqliteWriter writer, StoreWriterLock writeLock, SqliteCheckpointTurn checkpointTurn, Func<long> committed, Action<long>? waitForSync)
    : IWriteGroupRunner<SqliteErrors>
{
    private readonly CombinedWriter<SqliteErrors> _writes = new();

    // True from Enter's BEGIN IMMEDIATE until the first Commit uses that transaction; every later Commit (a write run
    // again alone) begins its own.
    private bool _begun;

    /// <summary>How many commits carried more than one caller's write (for tests and diagnostics).</summary>
    public long CombinedCommits => _writes.CombinedCommits;

    /// <summary>How many callers wait for the writer now (for tests).</summary>
    public int PendingWrites => _writes.PendingWrites;

    /// <summary>
    /// Runs the write, alone or with others queued at the same moment; returns its result (keys removed, a failed
    /// precondition's index, or -1) and the commit's ticket for the WAL sync (0 when it wrote nothing).
    /// </summary>
    public long Write(SqliteErrors errors, WriteKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, WriteBatch? batch, out long ticket) =>
        _writes.Write(this, errors, kind, first, second, batch, out ticket);

    void IWriteGroupRunner<SqliteErrors>.Enter(QueuedWrite<SqliteErrors> leader, long started)
    {
        checkpointTurn.Yield(started, writer.Errors.Timeout);
        _ = writeLock.Enter(started);
        try
        {
            writer.Begin();
            _begun = true;
        }
        catch
        {
            writeLock.Exit();
            throw;
        }
    }

    void IWriteGroupRunner<SqliteErrors>.Exit()
    {
        _begun = false;
        writeLock.Exit();
    }

    long IWriteGroupRunner<SqliteErrors>.Commit(List<QueuedWrite<SqliteErrors>> group, int start, int count)
    {
        if (!_begun)
        {
            writer.Begin();
        }

        _begun = false;
        return writer.WriteGroup(group, start, count) ? committed() : 0;
    }

    void IWriteGroupRunner<SqliteErrors>.WaitForSync(long ticket) => waitForSync?.Invoke(ticket);
}

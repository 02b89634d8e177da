using DataStore.Sync;
using Microsoft.Extensions.Logging;

namespace DataStore.Sqlite;

/// <summary>
/// Copies the WAL back into the database file on a background thread of its own, so a write never waits for a
/// checkpoint; the writer connection runs with <c>wal_autocheckpoint=0</c> and reports the frames it wrote here.
/// </summary>
/// <remarks>
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 frames: that writer copies every
/// changed page into the database file at random offsets and syncs both files while it holds the write lock, so every
/// other writer queues behind it (milliseconds, tens under load). Here the writer only counts its frames and wakes this
/// thread every <see cref="FramesPerCheckpoint"/> of them (and the thread looks every second, for other processes'
/// frames). The thread runs a passive checkpoint on its own connection while writers go on appending. A WAL whose
/// frames are all copied starts over from its beginning at the next write, but with writers busy during the copy that
/// moment never comes; so once the WAL holds <see cref="FramesPerRestart"/> frames, the thread syncs the WAL and then
/// copies the last few frames under the store's write lock: the one short stop writers see (two small syncs); writers
/// hold back while it waits for that lock (<see cref="SqliteCheckpointTurn"/>), or a tight writer could keep it out. Fewer,
/// larger cycles than SQLite's 1,000 frames, because each sync that overlaps writers' appends slows them on a busy disk.
/// A passive checkpoint syncs the WAL before it copies and the database after (<c>synchronous=NORMAL</c>), as the
/// automatic one does, so no durability promise changes. Should the thread fall behind by
/// <see cref="FramesBeforeWriterCheckpoints"/> frames, the writer checkpoints itself as SQLite would have, and a closing
/// store checkpoints what it wrote, so the WAL stays bounded.
/// </remarks>
internal sealed class SqliteCheckpointer(
    SqliteSession writer, StoreWriterLock writeLock, SqliteCheckpointTurn turn, Func<SqliteSession> open, Action syncWal, ILogger logger) : IDisposable
{
    /// <summary>Frames written since the last cycle that start one (about 16 MiB of WAL; SQLite's automatic checkpoint takes 1,000).</summary>
    public const int FramesPerCheckpoint = 4_000;

    /// <summary>Frames in the WAL after which a cycle also makes it start over.</summary>
    public const int FramesPerRestart = FramesPerCheckpoint;

    /// <summary>Frames after which the writer checkpoints itself because the background thread has not (about 64 MiB of WAL).</summary>
    public const int FramesBeforeWriterCheckpoints = 16_000;

    private static readonly TimeSpan Idle = TimeSpan.FromSeconds(1);

    private readonly AutoResetEvent _wake = new(false);
    private readonly Lock _start = new();
    private readonly Lock _cycle = new();
    private Thread? _thread;
    private long _frames;
    private long _unchecked;
    private long _commitsWhileWaiting;
    private volatile bool _requested;
    private volatile bool _stopping;

    /// <summary>The most commits writers made while one cycle waited for the write lock (for tests).</summary>
    public long MostCommitsWhileWaiting { get; private set; }

    /// <summary>How many cycles took the write lock so that the WAL could start over (for tests).</summary>
    public long Restarts { get; private set; }

    /// <summary>Counts the frames the last commit wrote and wakes the checkpointer when enough piled up. Call under the write lock.</summary>
    public void Committed()
    {
        _commitsWhileWaiting += turn.Pending ? 1 : 0;
        var frames = writer.TakeFramesWritten();
        _frames += frames;
        _unchecked += frames;
        if (_unchecked >= FramesBeforeWriterCheckpoints)
        {
            _frames = 0;
            _unchecked = 0;
            Checkpoint(writer);
        }
        else if (_frames >= FramesPerCheckpoint && !_requested)
        {
            _frames = 0;
            _requested = true;
            Wake();
        }
    }

    /// <summary>Runs <paramref name="action"/> while no cycle runs (a truncating checkpoint would find the checkpoint lock taken); takes the write lock after this one, as a cycle does.</summary>
    public void RunBetweenCycles(Action action)
    {
        lock (_cycle)
        {
            action();
        }
    }

    /// <summary>Stops the thread after the cycle in progress, then checkpoints what this store wrote; the store closes its writer afterwards.</summary>
    public void Dispose()
    {
        _stopping = true;
        Thread? thread;
        lock (_start)
        {
            thread = _thread;
            _thread = null;
        }

        _wake.Set();
        thread?.Join();
        _wake.Dispose();
        Checkpoint(writer);
    }

    private void Wake()
    {
        lock (_start)
        {
            if (_stopping)
            {
                return;
            }

            if (_thread is null)
            {
                var thread = new Thread(Run) { IsBackground = true, Name = "DataStore Sqlite checkpointer" };
                try
                {
                    Platform.LibraryThreads.Start(thread);
                }
                catch (IOException e)
                {
                    // The write committed; its frames wait for the next wake, or the writer's own checkpoint.
                    _requested = false;
                    Diagnostics.StoreLog.BackgroundSyncFailed(logger, e, StoreBackend.Sqlite, writer.Errors.Directory);
                    return;
                }

                _thread = thread;
            }
        }

        _wake.Set();
    }

    private void Run()
    {
        SqliteSession? session = null;
        try
        {
            while (true)
            {
                _wake.WaitOne(Idle);
                if (_stopping)
                {
                    return;
                }

                try
                {
                    session ??= open();
                    lock (_cycle)
                    {
                        Cycle(session);
                    }
                }
                catch (Exception e) when (e is not ObjectDisposedException)
                {
                    Diagnostics.StoreLog.BackgroundSyncFailed(logger, e, StoreBackend.Sqlite, writer.Errors.Directory);
                }
                finally
                {
                    _requested = false;
                }
            }
        }
        catch (ObjectDisposedException)
        {
            // The store closed while this thread waited for its write lock.
        }
        finally
        {
            session?.Dispose();
        }
    }

    private void Cycle(SqliteSession session)
    {
        if (session.CheckpointPassive() < FramesPerRestart)
        {
            return;
        }

        syncWal(); // so the sync SQLite makes under the lock finds little left to write
        turn.Waiting();
        StoreWriterLock.Scope scope;
        try
        {
            scope = writeLock.Enter();
        }
        finally
        {
            turn.Taken();
        }

        using (scope)
        {
            MostCommitsWhileWaiting = Math.Max(MostCommitsWhileWaiting, _commitsWhileWaiting);
            _commitsWhileWaiting = 0;
            Restarts++;
            session.CheckpointPassive();
            _unchecked = 0;
        }
    }

    private void Checkpoint(SqliteSession session)
    {
        try
        {
            session.CheckpointPassive();
        }
        catch (DataStoreException e)
        {
            // The write itself committed; a failed checkpoint leaves the WAL to the next one.
            Diagnostics.StoreLog.BackgroundSyncFailed(logger, e, StoreBackend.Sqlite, writer.Errors.Directory);
        }
    }
}

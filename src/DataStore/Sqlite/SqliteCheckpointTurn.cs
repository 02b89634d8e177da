using System.Diagnostics;

namespace DataStore.Sqlite;

/// <summary>
/// Gives the background checkpointer its turn at the store's write lock. The lock is a monitor, which is not fair: a
/// writer that exits and enters again at once usually wins over a thread already waiting, so a tight writer could keep
/// the checkpointer out for as long as it writes, and the WAL grew to the writer's own fallback (about 64 MiB) instead of
/// starting over near 16 MiB. While the checkpointer waits for the lock, writers about to take it wait here first.
/// </summary>
internal sealed class SqliteCheckpointTurn
{
    private readonly object _gate = new();
    private volatile bool _pending;

    /// <summary>True while the checkpointer waits for the write lock.</summary>
    public bool Pending => _pending;

    /// <summary>The checkpointer is about to wait for the write lock: writers hold back until <see cref="Taken"/>.</summary>
    public void Waiting() => _pending = true;

    /// <summary>The checkpointer holds the write lock, or gave up waiting: writers go on.</summary>
    public void Taken()
    {
        lock (_gate)
        {
            _pending = false;
            Monitor.PulseAll(_gate);
        }
    }

    /// <summary>
    /// Before a writer takes the write lock: waits while the checkpointer waits for it, at most what is left of the
    /// timeout of a call that started at <paramref name="started"/> (the lock's own wait then reports a timeout).
    /// </summary>
    public void Yield(long started, TimeSpan timeout)
    {
        if (!_pending)
        {
            return;
        }

        lock (_gate)
        {
            while (_pending)
            {
                var left = timeout - Stopwatch.GetElapsedTime(started);
                if (left <= TimeSpan.Zero || !Monitor.Wait(_gate, left))
                {
                    return;
                }
            }
        }
    }
}

using System.Diagnostics;
using System.Runtime.ExceptionServices;

namespace DataStore.Writes;

/// <summary>
/// Where a process's concurrent writers meet, so that one of them (the leader) runs every waiting caller's write in one
/// engine transaction and one commit instead of each paying its own. Callers join in arrival order; the first with no
/// leader ahead of it leads; the others wait until a leader has run their write or, until one has taken it, until
/// their timeout passes. The leader runs the group and then hands each caller its own outcome.
/// </summary>
internal sealed class WriteQueue<TErrors>
    where TErrors : class, IWriteErrors
{
    /// <summary>At most this many callers share one transaction.</summary>
    public const int MaxGroup = 64;

    // Past this many bytes of keys and values a group takes no more callers (one that is larger still goes alone).
    private const long MaxGroupBytes = 4 << 20;

    private readonly object _gate = new();
    private readonly List<QueuedWrite<TErrors>> _pending = [];
    private bool _leading;

    /// <summary>How many callers wait now (for tests).</summary>
    public int Pending
    {
        get
        {
            lock (_gate)
            {
                return _pending.Count;
            }
        }
    }

    /// <summary>
    /// Adds <paramref name="write"/> (its caller started at the <see cref="Stopwatch"/> timestamp <paramref name="started"/>)
    /// and waits: true when the caller is to lead (<see cref="TakeGroup"/>, then <see cref="Finish"/>; <see cref="CombinedWriter{TErrors}"/> does both), false when
    /// another leader has finished the write.
    /// </summary>
    /// <exception cref="Exception">No leader took the write within its timeout (<see cref="IWriteErrors.TimedOut"/>); it was withdrawn.</exception>
    public bool Join(QueuedWrite<TErrors> write, long started)
    {
        lock (_gate)
        {
            _pending.Add(write);
            while (!write.Done)
            {
                if (!_leading)
                {
                    _leading = true;
                    return true;
                }

                if (write.Taken)
                {
                    Monitor.Wait(_gate);
                    continue;
                }

                var left = write.Errors.Timeout - Stopwatch.GetElapsedTime(started);
                if (left <= TimeSpan.Zero)
                {
                    _pending.Remove(write);
                    throw write.Errors.TimedOut();
                }

                Monitor.Wait(_gate, left);
            }

            return false;
        }
    }

    /// <summary>The leader, holding the writer lock, takes the waiting callers' writes (its own always among them) into <paramref name="group"/>.</summary>
    public void TakeGroup(QueuedWrite<TErrors> leader, List<QueuedWrite<TErrors>> group)
    {
        lock (_gate)
        {
            long bytes = 0;
            foreach (var write in _pending)
            {
                if (write != leader && (group.Count >= MaxGroup - 1 || bytes > MaxGroupBytes))
                {
                    continue;
                }

                bytes += write.SizeHint();
                write.Taken = true;
                group.Add(write);
            }

            foreach (var write in group)
            {
                _pending.Remove(write);
            }
        }
    }

    /// <summary>
    /// Ends a leader's turn: marks <paramref name="group"/> done (with <paramref name="failure"/> for a write that has no
    /// outcome yet), or, when the leader never took a group, withdraws its write with <paramref name="failure"/>; then
    /// wakes the waiters, one of which leads next.
    /// </summary>
    public void Finish(QueuedWrite<TErrors> leader, List<QueuedWrite<TErrors>>? group, Exception? failure)
    {
        lock (_gate)
        {
            if (group is null)
            {
                _pending.Remove(leader);
                leader.Failure = failure is null ? null : ExceptionDispatchInfo.Capture(failure);
            }
            else
            {
                foreach (var write in group)
                {
                    if (failure is not null && write.Failure is null)
                    {
                        write.Failure = ExceptionDispatchInfo.Capture(failure);
                    }

                    write.Done = true;
                }
            }

            _leading = false;
            Monitor.PulseAll(_gate);
        }
    }
}

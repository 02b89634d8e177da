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
    /// and waits: true when the caller is to lead (<see cref="TakeGroup"/>, <see cref="HandOver"/>, then
    /// <see cref="Complete"/>; <see cref="CombinedWriter{TErrors}"/> does all three), false when another leader has
    /// finished the write. A waiting caller sleeps on its own write, so it is woken only when its write is done or it is
    /// the first in line when the lead comes free: about once per write, not at every leader's turn.
    /// </summary>
    /// <exception cref="Exception">No leader took the write within its timeout (<see cref="IWriteErrors.TimedOut"/>); it was withdrawn.</exception>
    public bool Join(QueuedWrite<TErrors> write, long started)
    {
        lock (_gate)
        {
            _pending.Add(write);
            if (!_leading)
            {
                _leading = true;
                return true;
            }
        }

        while (true)
        {
            if (write.Taken)
            {
                write.Sleep(Timeout.InfiniteTimeSpan);
            }
            else if (write.Errors.Timeout - Stopwatch.GetElapsedTime(started) is var left && left > TimeSpan.Zero)
            {
                write.Sleep(left);
            }

            if (write.Done)
            {
                return false;
            }

            lock (_gate)
            {
                if (!_leading && !write.Taken)
                {
                    _leading = true;
                    return true;
                }

                if (!write.Taken && Stopwatch.GetElapsedTime(started) >= write.Errors.Timeout)
                {
                    _pending.Remove(write);
                    throw write.Errors.TimedOut();
                }
            }
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

    /// <summary>Withdraws the write of a leader that never took a group (it could not take the writer).</summary>
    public void Withdraw(QueuedWrite<TErrors> leader)
    {
        lock (_gate)
        {
            _pending.Remove(leader);
        }
    }

    /// <summary>
    /// Ends a leader's turn at the writer: frees the lead and wakes the first waiting caller to take it. A caller that
    /// arrives meanwhile may take it first (it is already running); the woken one then waits again, and that leader
    /// wakes the first waiting caller in turn when it ends.
    /// </summary>
    public void HandOver()
    {
        QueuedWrite<TErrors>? next;
        lock (_gate)
        {
            _leading = false;
            next = _pending.Count > 0 ? _pending[0] : null;
        }

        next?.Wake();
    }

    /// <summary>
    /// Marks <paramref name="group"/> done, with <paramref name="failure"/> for a write that has no outcome yet, and wakes
    /// each caller in it but the leader, once.
    /// </summary>
    public static void Complete(QueuedWrite<TErrors> leader, List<QueuedWrite<TErrors>> group, Exception? failure)
    {
        foreach (var write in group)
        {
            if (failure is not null && write.Failure is null)
            {
                write.Failure = ExceptionDispatchInfo.Capture(failure);
            }

            write.Done = true;
            if (write != leader)
            {
                write.Wake();
            }
        }
    }
}

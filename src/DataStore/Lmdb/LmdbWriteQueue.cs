using System.Diagnostics;

namespace DataStore.Lmdb;

/// <summary>
/// Where a process's concurrent writers meet, so that one of them (the leader) runs every waiting caller's write in
/// one LMDB write transaction instead of each paying its own commit (ADR 0006). Callers join in arrival order; the
/// first with no leader ahead of it leads; the others wait until a leader has run their request or, until one has
/// taken it, until their timeout passes.
/// </summary>
internal sealed class LmdbWriteQueue
{
    /// <summary>At most this many callers share one transaction.</summary>
    public const int MaxGroup = 64;

    // Past this many bytes of keys and values a group takes no more callers (one that is larger still goes alone).
    private const long MaxGroupBytes = 4 << 20;

    private readonly object _gate = new();
    private readonly List<LmdbWriteRequest> _pending = [];
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
    /// Adds <paramref name="request"/> and waits: returns true when the caller is to lead (call <see cref="TakeGroup"/>,
    /// then <see cref="Finish"/>), false when another leader has finished the request.
    /// </summary>
    /// <exception cref="StoreTimeoutException">No leader took the request within the timeout; it was withdrawn.</exception>
    public bool Join(LmdbWriteRequest request, Stopwatch clock)
    {
        lock (_gate)
        {
            _pending.Add(request);
            while (!request.Done)
            {
                if (!_leading)
                {
                    _leading = true;
                    return true;
                }

                if (request.Taken)
                {
                    Monitor.Wait(_gate);
                    continue;
                }

                var left = request.Errors.Timeout - clock.Elapsed;
                if (left <= TimeSpan.Zero)
                {
                    _pending.Remove(request);
                    throw request.Errors.TimedOut();
                }

                Monitor.Wait(_gate, left);
            }

            return false;
        }
    }

    /// <summary>The leader, holding the writer locks, takes the waiting callers (its own request always among them).</summary>
    public void TakeGroup(LmdbWriteRequest leader, List<LmdbWriteRequest> group)
    {
        lock (_gate)
        {
            long bytes = 0;
            foreach (var request in _pending)
            {
                if (request != leader && (group.Count >= MaxGroup - 1 || bytes > MaxGroupBytes))
                {
                    continue;
                }

                bytes += request.SizeHint();
                request.Taken = true;
                group.Add(request);
            }

            foreach (var request in group)
            {
                _pending.Remove(request);
            }
        }
    }

    /// <summary>
    /// Ends a leader's turn: marks <paramref name="group"/> done (with <paramref name="failure"/> for any request that
    /// has no outcome yet), withdraws the leader's own request if it never ran, and wakes the waiters, one of which leads next.
    /// </summary>
    public void Finish(LmdbWriteRequest leader, List<LmdbWriteRequest>? group, Exception? failure)
    {
        lock (_gate)
        {
            if (group is not null)
            {
                foreach (var request in group)
                {
                    if (failure is not null && request.Failure is null && !request.Done)
                    {
                        request.Failure = System.Runtime.ExceptionServices.ExceptionDispatchInfo.Capture(failure);
                    }

                    request.Done = true;
                }
            }
            else
            {
                _pending.Remove(leader);
            }

            _leading = false;
            Monitor.PulseAll(_gate);
        }
    }
}

namespace DataStore.Lmdb;

/// <summary>
/// Keeps LMDB's memory map still while threads read through it. Every call into LMDB that touches the map
/// (a point read, a cursor step) runs inside <see cref="Enter"/>/<see cref="Exit"/>; resizing the map, which
/// unmaps and remaps it, runs inside <see cref="BeginExclusive"/>/<see cref="EndExclusive"/>, once no thread is inside.
/// </summary>
/// <remarks>
/// Nobody stays inside between calls: an open scan copies each pair out before it leaves, so a thread holding a
/// scan open can write, and grow the map, without waiting for itself. Each thread marks itself inside on its own
/// <see cref="LmdbReaderSeat"/> with plain stores; the rare exclusive side pays instead, with a process-wide memory
/// barrier (<see cref="Interlocked.MemoryBarrierProcessWide"/>) between raising its flag and reading the seats, so a
/// reader either is seen inside or sees the flag. Entering costs no interlocked operation.
/// </remarks>
internal sealed class LmdbMapGate
{
    // The seat this thread used last, of whichever gate: one field test finds it in the common case of one store.
    [ThreadStatic]
    private static LmdbReaderSeat? t_last;

    private readonly object _gate = new();
    private readonly List<LmdbReaderSeat> _seats = [];
    private readonly ThreadLocal<LmdbReaderSeat?> _mine = new();
    private int _exclusive;
    private int _epoch;

    /// <summary>A counter that changes each time the map is remapped; cursors compare it to know they must reposition.</summary>
    public int Epoch => Volatile.Read(ref _epoch);

    /// <summary>Enters the gate (waiting out an exclusive holder) and returns the calling thread's seat, for <see cref="Exit"/>.</summary>
    public LmdbReaderSeat Enter()
    {
        var seat = t_last;
        if (seat is null || seat.Gate != this)
        {
            seat = t_last = _mine.Value ?? TakeSeat();
        }

        if (seat.Depth > 0)
        {
            // Already inside: an exclusive holder is waiting for this thread anyway.
            seat.Depth++;
            return seat;
        }

        while (true)
        {
            Volatile.Write(ref seat.Depth, 1);
            if (Volatile.Read(ref _exclusive) == 0)
            {
                return seat;
            }

            Volatile.Write(ref seat.Depth, 0);
            WaitOutExclusive();
        }
    }

    /// <summary>Leaves the gate; <paramref name="seat"/> is the one <see cref="Enter"/> returned on this thread.</summary>
    public void Exit(LmdbReaderSeat seat) => Volatile.Write(ref seat.Depth, seat.Depth - 1);

    /// <summary>Waits until no thread is inside, and keeps new ones out until <see cref="EndExclusive"/>. Call at most once at a time (under the writer lock).</summary>
    public void BeginExclusive()
    {
        Volatile.Write(ref _exclusive, 1);
        Interlocked.MemoryBarrierProcessWide();
        var spin = new SpinWait();
        foreach (var seat in Seats())
        {
            while (Volatile.Read(ref seat.Depth) != 0)
            {
                spin.SpinOnce();
            }
        }
    }

    public void EndExclusive()
    {
        Interlocked.Increment(ref _epoch);
        lock (_gate)
        {
            Volatile.Write(ref _exclusive, 0);
            Monitor.PulseAll(_gate);
        }
    }

    /// <summary>Every seat given out so far; their transactions are safe to touch only between <see cref="BeginExclusive"/> and <see cref="EndExclusive"/>.</summary>
    public LmdbReaderSeat[] Seats()
    {
        lock (_gate)
        {
            return [.. _seats];
        }
    }

    // First entry of this thread: a seat whose thread has ended (its transaction with it), or a new one.
    private LmdbReaderSeat TakeSeat()
    {
        var current = Thread.CurrentThread;
        lock (_gate)
        {
            var seat = _seats.Find(s => !s.Owner.IsAlive);
            if (seat is null)
            {
                seat = new LmdbReaderSeat(this, current);
                _seats.Add(seat);
            }

            seat.Owner = current;
            _mine.Value = seat;
            return seat;
        }
    }

    private void WaitOutExclusive()
    {
        lock (_gate)
        {
            while (Volatile.Read(ref _exclusive) != 0)
            {
                Monitor.Wait(_gate);
            }
        }
    }
}

namespace DataStore.Lmdb;

/// <summary>
/// Keeps LMDB's memory map still while threads read through it. Every call into LMDB that touches the map
/// (a point read, a cursor step) runs inside <see cref="Enter"/>/<see cref="Exit"/>; resizing the map, which
/// unmaps and remaps it, runs inside <see cref="BeginExclusive"/>/<see cref="EndExclusive"/>, once no thread is inside.
/// </summary>
/// <remarks>
/// Nobody stays inside between calls: an open scan copies each pair out before it leaves, so a thread holding a
/// scan open can write, and grow the map, without waiting for itself. Entering costs two interlocked operations.
/// </remarks>
internal sealed class LmdbMapGate
{
    private readonly object _gate = new();
    private int _inside;
    private int _exclusive;
    private int _epoch;

    /// <summary>A counter that changes each time the map is remapped; cursors compare it to know they must reposition.</summary>
    public int Epoch => Volatile.Read(ref _epoch);

    public void Enter()
    {
        while (true)
        {
            Interlocked.Increment(ref _inside);
            if (Volatile.Read(ref _exclusive) == 0)
            {
                return;
            }

            Interlocked.Decrement(ref _inside);
            WaitOutExclusive();
        }
    }

    public void Exit() => Interlocked.Decrement(ref _inside);

    /// <summary>Waits until no thread is inside, and keeps new ones out until <see cref="EndExclusive"/>. Call at most once at a time (under the writer lock).</summary>
    public void BeginExclusive()
    {
        Interlocked.Exchange(ref _exclusive, 1);
        var spin = new SpinWait();
        while (Volatile.Read(ref _inside) != 0)
        {
            spin.SpinOnce();
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

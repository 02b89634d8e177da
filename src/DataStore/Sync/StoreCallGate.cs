namespace DataStore.Sync;

/// <summary>
/// Counts a store's calls in flight and closes the store to new ones, once: <see cref="Close"/> returns only when
/// every call that got in has left, so the store can then release what those calls were using.
/// </summary>
/// <remarks>
/// <para>
/// The count is a <see cref="StripedCount"/>: reads from several threads each write only their own cache line (one
/// shared counter made every call from 4 threads move that line between the cores, twice).
/// </para>
/// <para>
/// Entering raises the count, then reads the closed flag; closing sets the flag, then sums the count until it is zero.
/// Both steps are full fences, so a call either sees the flag (and leaves again) or is counted before <see cref="Close"/>
/// reads its stripe. Once the flag is set no call gets in, so the stripes only fall, apart from a refused call's passing
/// raise: a sum read stripe by stripe is never below the calls still in, and zero means none is.
/// </para>
/// </remarks>
internal sealed class StoreCallGate
{
    private readonly StripedCount _calls = new();
    private int _closed;

    /// <summary>True once <see cref="Close"/> has begun.</summary>
    public bool IsClosed => Volatile.Read(ref _closed) != 0;

    /// <summary>Counts a call in; false (nothing counted) once the gate is closed.</summary>
    public bool TryEnter()
    {
        _calls.Increment();
        if (Volatile.Read(ref _closed) == 0)
        {
            return true;
        }

        _calls.Decrement();
        return false;
    }

    /// <summary>Counts a call out.</summary>
    public void Exit() => _calls.Decrement();

    /// <summary>Closes the gate and waits until no call is in; false when another thread closed it first (it does the waiting).</summary>
    public bool Close()
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
        {
            return false;
        }

        var wait = new SpinWait();
        while (_calls.Sum() != 0)
        {
            wait.SpinOnce();
        }

        return true;
    }

    /// <summary>A counted call; disposing it counts the call out.</summary>
    public readonly ref struct Call(StoreCallGate gate)
    {
        /// <summary>Counts the call out.</summary>
        public void Dispose() => gate.Exit();
    }
}

namespace DataStore.Sync;

/// <summary>
/// Counts a store's calls in flight and closes the store to new ones, once: <see cref="Close"/> returns only when
/// every call that got in has left, so the store can then release what those calls were using.
/// </summary>
/// <remarks>
/// One integer holds both the count and the closed flag, so entering is a single interlocked increment: a call
/// either sees the flag (and leaves again) or is counted before <see cref="Close"/> reads the count.
/// </remarks>
internal sealed class StoreCallGate
{
    private const int ClosedFlag = 1 << 30;

    private int _state;

    /// <summary>True once <see cref="Close"/> has begun.</summary>
    public bool IsClosed => (Volatile.Read(ref _state) & ClosedFlag) != 0;

    /// <summary>Counts a call in; false (nothing counted) once the gate is closed.</summary>
    public bool TryEnter()
    {
        if ((Interlocked.Increment(ref _state) & ClosedFlag) == 0)
        {
            return true;
        }

        Interlocked.Decrement(ref _state);
        return false;
    }

    /// <summary>Counts a call out.</summary>
    public void Exit() => Interlocked.Decrement(ref _state);

    /// <summary>Closes the gate and waits until no call is in; false when another thread closed it first (it does the waiting).</summary>
    public bool Close()
    {
        if ((Interlocked.Or(ref _state, ClosedFlag) & ClosedFlag) != 0)
        {
            return false;
        }

        var wait = new SpinWait();
        while ((Volatile.Read(ref _state) & ~ClosedFlag) != 0)
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

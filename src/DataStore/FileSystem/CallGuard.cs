namespace DataStore.FileSystem;

/// <summary>
/// Counts the calls that are using a store's shared memory, lock files and directory handles, so that
/// <see cref="Close"/> (from <c>Dispose</c>) frees them only after the last such call has left; a call that arrives
/// once closing began throws <see cref="ObjectDisposedException"/> instead of touching freed memory.
/// </summary>
/// <remarks>Two interlocked operations a call. A call must not dispose its own store (Close would wait for it).</remarks>
internal sealed class CallGuard(string storePath)
{
    private const int Closing = int.MinValue;
    private int _state;

    /// <summary>Registers a call; dispose the returned scope when the call no longer uses the store's resources.</summary>
    public Scope Enter()
    {
        if (Interlocked.Increment(ref _state) < 0)
        {
            Interlocked.Decrement(ref _state);
            ThrowDisposed();
        }

        return new Scope(this);
    }

    /// <summary>Turns every later <see cref="Enter"/> away and waits until every call in progress has left.</summary>
    public void Close()
    {
        Interlocked.Or(ref _state, Closing);
        var wait = new SpinWait();
        while ((Volatile.Read(ref _state) & int.MaxValue) != 0)
        {
            wait.SpinOnce(sleep1Threshold: 20);
        }
    }

    private void Leave() => Interlocked.Decrement(ref _state);

    private void ThrowDisposed() =>
        throw new ObjectDisposedException(nameof(FileSystemStore), $"The FileSystem store at '{storePath}' has been disposed.");

    /// <summary>One registered call.</summary>
    public readonly struct Scope(CallGuard guard) : IDisposable
    {
        public void Dispose() => guard.Leave();
    }
}

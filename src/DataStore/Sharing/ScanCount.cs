namespace DataStore.Sharing;

/// <summary>How many client scans hold an engine cursor in this owner, and how many chunks are read ahead for them (diagnostics and tests).</summary>
internal sealed class ScanCount
{
    private int _open;
    private int _ahead;

    public int Open => Volatile.Read(ref _open);

    /// <summary>Chunks read ahead and not yet sent: at most one per open scan.</summary>
    public int Ahead => Volatile.Read(ref _ahead);

    public void Opened() => Interlocked.Increment(ref _open);

    public void Closed() => Interlocked.Decrement(ref _open);

    public void ChunkReadAhead() => Interlocked.Increment(ref _ahead);

    public void ChunkSent() => Interlocked.Decrement(ref _ahead);
}

namespace DataStore.Sharing;

/// <summary>How many client scans hold an engine cursor in this owner (diagnostics and tests).</summary>
internal sealed class ScanCount
{
    private int _open;

    public int Open => Volatile.Read(ref _open);

    public void Opened() => Interlocked.Increment(ref _open);

    public void Closed() => Interlocked.Decrement(ref _open);
}

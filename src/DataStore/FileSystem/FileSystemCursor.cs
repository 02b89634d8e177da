namespace DataStore.FileSystem;

/// <summary>A cursor over a scan's snapshot, which was read whole (under the shared lock) when the scan opened.</summary>
internal sealed class FileSystemCursor(ScanBuffer snapshot) : IKeyValueCursor
{
    private ScanBuffer? _snapshot = snapshot;
    private int _index = -1;

    public ReadOnlySpan<byte> Key => Snapshot.Key(Current);

    public ReadOnlySpan<byte> Value => Snapshot.Value(Current);

    private ScanBuffer Snapshot => _snapshot ?? throw new ObjectDisposedException(nameof(FileSystemCursor));

    private int Current => _index >= 0 && _index < Snapshot.Count
        ? _index
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public bool MoveNext()
    {
        var snapshot = Snapshot;
        if (_index < snapshot.Count)
        {
            _index++;
        }

        return _index < snapshot.Count;
    }

    public void Dispose() => _snapshot = null;
}

namespace DataStore.FileSystem;

/// <summary>
/// A whole-store read (export, migrate, count, verify's pair count) in key order, one chunk at a time: each chunk
/// is read under the store's shared lock, which is let go between chunks, so a writer of any process waits at most
/// one chunk (a few milliseconds) however large the store. Memory is one chunk.
/// </summary>
/// <remarks>
/// Not a snapshot of the whole store: every pair returned was committed, each chunk is consistent, and every key
/// that stays unchanged during the read is returned exactly once; a key written during the read shows its old or
/// its new value (or is missing, if created behind the read's position), and a batch committed while the read is
/// between chunks may show only for the keys after the read's position. ADR 0008 states this.
/// </remarks>
internal sealed class ChunkedCursor(Func<byte[], ScanBuffer, byte[]?> readChunk) : IKeyValueCursor
{
    private ScanBuffer? _chunk;
    private byte[]? _next = [];
    private int _index;
    private bool _disposed;

    public ReadOnlySpan<byte> Key => Chunk.Key(_index);

    public ReadOnlySpan<byte> Value => Chunk.Value(_index);

    private ScanBuffer Chunk
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _chunk is not null && _index < _chunk.Count
                ? _chunk
                : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");
        }
    }

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        _index++;
        while (_chunk is null || _index >= _chunk.Count)
        {
            if (_next is null)
            {
                _index = _chunk?.Count ?? 0;
                return false;
            }

            // readChunk fills the chunk from _next on and says where the following chunk starts (null at the end).
            _chunk = new ScanBuffer();
            _next = readChunk(_next, _chunk);
            _index = 0;
        }

        return true;
    }

    public void Dispose()
    {
        _disposed = true;
        _chunk = null;
    }
}

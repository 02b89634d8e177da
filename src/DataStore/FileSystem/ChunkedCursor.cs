namespace DataStore.FileSystem;

/// <summary>
/// A scan (export, count and verify read the whole store through one) in key order, one chunk at a time: each chunk
/// is read under the store's shared lock, which is let go between chunks, so a writer of any process waits at most
/// one chunk (a few milliseconds) however long the range. Memory is one chunk: <paramref name="first"/> is the chunk
/// read when the scan opened, <paramref name="next"/> where the following chunk starts (null at the end), and
/// <paramref name="owned"/> is released with the cursor.
/// </summary>
/// <remarks>
/// <paramref name="readChunk"/> merges writers' pre-images into each chunk, so the chunks add up to a snapshot (ADR 0022).
/// </remarks>
internal sealed class ChunkedCursor(Func<byte[], (ScanBuffer Chunk, byte[]? Next)> readChunk, ScanBuffer first, byte[]? next, IDisposable? owned = null)
    : IKeyValueCursor
{
    private ScanBuffer? _chunk = first;
    private byte[]? _next = next;
    private int _index = -1;
    private bool _disposed;

    public ReadOnlySpan<byte> Key => Chunk.Key(_index);

    public ReadOnlySpan<byte> Value => Chunk.Value(_index);

    private ScanBuffer Chunk
    {
        get
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            return _chunk is not null && _index >= 0 && _index < _chunk.Count
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

            // readChunk reads the chunk from _next on and says where the following chunk starts (null at the end).
            (_chunk, _next) = readChunk(_next);
            _index = 0;
        }

        return true;
    }

    public void Dispose()
    {
        if (!_disposed)
        {
            _disposed = true;
            _chunk = null;
            owned?.Dispose();
        }
    }
}

namespace DataStore.LiteDb;

/// <summary>
/// A whole-store read in bounded memory. The store's writer lock is held (see <see cref="LiteDbWriterHold"/>)
/// until the cursor is disposed, so nothing commits meanwhile and successive read transactions see the same
/// store; pairs are read in chunks, each one <see cref="LiteDbScan"/> batch in a read transaction of its own
/// that starts just after the previous chunk's last key. A single transaction over the whole store would keep
/// every page it read until it ended (LiteDB 5's snapshot caches each page it loads for the transaction's life).
/// </summary>
internal sealed class LiteDbWholeRead(LiteDbWriterHold hold, Func<byte[], LiteDbScan> openChunk, Func<Exception, Exception> translate, Action<IKeyValueCursor> closed)
    : IKeyValueCursor
{
    private readonly LiteDbPairBatch _batch = new();
    private byte[]? _next = [];
    private int _disposed;

    public ReadOnlySpan<byte> Key => _batch.Key;

    public ReadOnlySpan<byte> Value => _batch.Value;

    public bool MoveNext()
    {
        while (!_batch.MoveNext())
        {
            ObjectDisposedException.ThrowIf(_disposed != 0, this);
            if (_next is null)
            {
                return false;
            }

            _batch.Load([]);
            var chunk = ReadChunk(_next, out var last);
            _batch.Load(chunk);

            // The smallest key after the chunk's last one; a long key's run is read again from its start and
            // the keys before it skipped, as a range scan from that key does.
            _next = last || chunk.Count == 0 ? null : [.. chunk[^1].Key, 0];
        }

        return true;
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _batch.Load([]);
        hold.Dispose();
        closed(this);
    }

    private List<KeyValuePair<byte[], byte[]>> ReadChunk(byte[] start, out bool last)
    {
        try
        {
            var scan = openChunk(start);
            try
            {
                return scan.Next(out last);
            }
            finally
            {
                scan.Close();
            }
        }
        catch (Exception e)
        {
            throw translate(e);
        }
    }
}

namespace DataStore.LiteDb;

/// <summary>A cursor over a <see cref="LiteDbScan"/>: pairs arrive in batches from the scan's thread.</summary>
internal sealed class LiteDbCursor(LiteDbScan scan, Func<Exception, Exception> translate, Action<LiteDbCursor> closed) : IKeyValueCursor
{
    private List<KeyValuePair<byte[], byte[]>> _batch = [];
    private int _index = -1;
    private bool _last;
    private bool _disposed;

    public ReadOnlySpan<byte> Key => Current.Key;

    public ReadOnlySpan<byte> Value => Current.Value;

    private KeyValuePair<byte[], byte[]> Current => _index >= 0 && _index < _batch.Count
        ? _batch[_index]
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        while (++_index >= _batch.Count)
        {
            if (_last)
            {
                _index = _batch.Count;
                return false;
            }

            try
            {
                _batch = scan.Next(out _last);
            }
            catch (Exception e)
            {
                throw translate(e);
            }

            _index = -1;
        }

        return true;
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _batch = [];
        scan.Close();
        closed(this);
    }
}

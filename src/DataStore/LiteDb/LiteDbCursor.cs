namespace DataStore.LiteDb;

/// <summary>A cursor over a <see cref="LiteDbScan"/>: pairs arrive in batches from the scan's thread.</summary>
internal sealed class LiteDbCursor(LiteDbScan scan, Func<Exception, Exception> translate, Action<LiteDbCursor> closed) : IKeyValueCursor
{
    private readonly LiteDbPairBatch _batch = new();
    private bool _last;
    private bool _disposed;

    public ReadOnlySpan<byte> Key => _batch.Key;

    public ReadOnlySpan<byte> Value => _batch.Value;

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        while (!_batch.MoveNext())
        {
            if (_last)
            {
                return false;
            }

            try
            {
                _batch.Load(scan.Next(out _last));
            }
            catch (Exception e)
            {
                throw translate(e);
            }
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
        _batch.Load([]);
        scan.Close();
        closed(this);
    }
}

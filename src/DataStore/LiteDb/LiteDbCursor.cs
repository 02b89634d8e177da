namespace DataStore.LiteDb;

/// <summary>A cursor over a <see cref="LiteDbScan"/>: pairs arrive in batches from the scan's thread.</summary>
/// <remarks>
/// Each step is a call in flight on the store, so the store's Dispose waits for it before closing the scan; the
/// batch holds copies, so the spans stay readable even after the store closed the cursor.
/// </remarks>
internal sealed class LiteDbCursor(KeyValueStoreBase store, LiteDbScan scan, Func<Exception, Exception> translate, Action<LiteDbCursor> closed) : IKeyValueCursor
{
    private readonly LiteDbPairBatch _batch = new();
    private bool _last;
    private int _disposed;

    /// <summary>How many documents the scan has read from LiteDB so far (for tests).</summary>
    internal int DocumentsRead => scan.DocumentsRead;

    public ReadOnlySpan<byte> Key => _batch.Key;

    public ReadOnlySpan<byte> Value => _batch.Value;

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(Volatile.Read(ref _disposed) != 0 || !store.TryEnterCall(), this);
        try
        {
            return Step();
        }
        finally
        {
            store.ExitCall();
        }
    }

    /// <summary>Closes the scan; safe from any thread (the store closes the cursors still open when it is disposed).</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        scan.Close();
        closed(this);
    }

    private bool Step()
    {
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
}

namespace DataStore.LiteDb;

/// <summary>The store's open cursors, which Dispose closes.</summary>
internal sealed class LiteDbCursors
{
    private readonly HashSet<IKeyValueCursor> _open = [];

    public LiteDbCursor Add(KeyValueStoreBase store, LiteDbScan scan, Func<Exception, Exception> translate)
    {
        var cursor = new LiteDbCursor(store, scan, translate, Forget);
        Track(cursor);
        return cursor;
    }

    /// <summary>Counts <paramref name="cursor"/> as open until it calls <see cref="Forget"/>.</summary>
    public void Track(IKeyValueCursor cursor)
    {
        lock (_open)
        {
            _open.Add(cursor);
        }
    }

    /// <summary>Disposes every open cursor; their owners' next MoveNext throws <see cref="ObjectDisposedException"/>.</summary>
    public void CloseAll()
    {
        IKeyValueCursor[] open;
        lock (_open)
        {
            open = [.. _open];
        }

        foreach (var cursor in open)
        {
            cursor.Dispose();
        }
    }

    /// <summary>Stops counting <paramref name="cursor"/>, which has been disposed.</summary>
    public void Forget(IKeyValueCursor cursor)
    {
        lock (_open)
        {
            _open.Remove(cursor);
        }
    }
}

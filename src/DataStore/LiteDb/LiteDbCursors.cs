namespace DataStore.LiteDb;

/// <summary>The store's open cursors: Compact waits for them to close (it swaps the engine), Dispose closes them.</summary>
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

    /// <summary>Waits up to <paramref name="timeout"/> for every cursor to be disposed; false if some stay open.</summary>
    /// <remarks>The caller holds the write lock, so no scan starts meanwhile.</remarks>
    public bool WaitUntilNone(TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        lock (_open)
        {
            while (_open.Count > 0)
            {
                var left = deadline - DateTime.UtcNow;
                if (left <= TimeSpan.Zero || (!Monitor.Wait(_open, left) && _open.Count > 0))
                {
                    return false;
                }
            }
        }

        return true;
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
            Monitor.PulseAll(_open);
        }
    }
}

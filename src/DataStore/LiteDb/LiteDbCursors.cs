namespace DataStore.LiteDb;

/// <summary>The store's open cursors: Compact waits for them to close (it swaps the engine), Dispose closes them.</summary>
internal sealed class LiteDbCursors
{
    private readonly HashSet<LiteDbCursor> _open = [];

    public LiteDbCursor Add(LiteDbScan scan, Func<Exception, Exception> translate)
    {
        var cursor = new LiteDbCursor(scan, translate, Forget);
        lock (_open)
        {
            _open.Add(cursor);
        }

        return cursor;
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
        LiteDbCursor[] open;
        lock (_open)
        {
            open = [.. _open];
        }

        foreach (var cursor in open)
        {
            cursor.Dispose();
        }
    }

    private void Forget(LiteDbCursor cursor)
    {
        lock (_open)
        {
            _open.Remove(cursor);
            Monitor.PulseAll(_open);
        }
    }
}

using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>The store's lifetime: calls in flight outside its methods (cursor steps, backup, verify), open cursors, and closing.</summary>
internal sealed partial class RocksDbStore
{
    protected override void Dispose(bool disposing)
    {
        // No call is in flight now (the base class waited for them) and none can start.
        _walSync?.Dispose();
        RocksDbCursor[] open;
        lock (_cursors)
        {
            open = [.. _cursors];
        }

        foreach (var cursor in open)
        {
            cursor.Close();
        }

        var writable = Writable;
        if (writable)
        {
            FlushMemtables();
        }

        CloseChangeLog();
        _walSync?.SyncIfDirty();
        if (writable)
        {
            MarkDurableWrites();
            RocksDbOpener.ForgetOwner(_directory);
            Rocks.rocksdb_close(Db);
        }

        if (_readOnlyDb != IntPtr.Zero)
        {
            Rocks.rocksdb_close(_readOnlyDb); // after the writable one: cursors begun before the first write read from it
        }

        Rocks.rocksdb_readoptions_destroy(_readOptions);
        Rocks.rocksdb_writeoptions_destroy(_writeOptions);
        _options.Dispose();
        _gate.Dispose();
    }

    /// <summary>Marks a call made outside the store's methods (a cursor step, backup, verify) in flight, so Dispose waits for it; throws once the store is disposed.</summary>
    internal void Acquire()
    {
        if (!TryEnterCall())
        {
            ThrowIfDisposed();
        }
    }

    /// <summary>Like <see cref="Acquire"/>, but returns false instead of throwing.</summary>
    internal bool TryAcquire() => TryEnterCall();

    internal void Release() => ExitCall();

    internal void Register(RocksDbCursor cursor)
    {
        lock (_cursors)
        {
            _cursors.Add(cursor);
        }
    }

    internal void Unregister(RocksDbCursor cursor)
    {
        lock (_cursors)
        {
            _cursors.Remove(cursor);
        }
    }
}

using DataStore.Batches;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// A native <c>WriteBatch</c> being built for one commit, with the reads that building it needs: preconditions,
/// the count a range delete returns, and the bound of a range delete with an open end. The store calls it under
/// its write gate (exclusively whenever it reads the store), so those reads and the commit are one atomic step.
/// </summary>
internal sealed unsafe class RocksDbBatch(RocksDbStore store) : IDisposable
{
    private byte[]? _lastKey;
    private bool _lastKeyKnown;

    /// <summary>The <c>rocksdb_writebatch_t</c> handle.</summary>
    public IntPtr Handle { get; } = Rocks.rocksdb_writebatch_create();

    /// <summary>True when building <paramref name="batch"/> reads the store (preconditions, prefix or range deletes).</summary>
    public static bool ReadsTheStore(WriteBatch batch)
    {
        if (batch.PreconditionCount > 0)
        {
            return true;
        }

        for (var i = 0; i < batch.OperationCount; i++)
        {
            if (batch.Operation(i).Kind is BatchEntryKind.DeletePrefix or BatchEntryKind.DeleteRange)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Returns -1 when every precondition holds, else the index of the first that does not.</summary>
    public int CheckPreconditions(WriteBatch batch)
    {
        for (var i = 0; i < batch.PreconditionCount; i++)
        {
            var condition = batch.Precondition(i);
            var key = batch.First(condition);
            var holds = condition.Kind == BatchEntryKind.RequireAbsent ? !store.Exists(key) : Holds(key, batch.Second(condition));
            if (!holds)
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>Adds the batch's puts and deletes, in order.</summary>
    public void Add(WriteBatch batch)
    {
        var adder = new OperationAdder(this, batch);
        batch.VisitOperations(ref adder);
    }

    /// <summary>Adds a delete of [start, end) (an empty end is open) and returns how many keys it removes.</summary>
    public long DeleteRangeCounting(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        long count = 0;
        using (var cursor = new RocksDbCursor(store, start, end, keysOnly: true))
        {
            while (cursor.MoveNext())
            {
                count++;
            }
        }

        if (count > 0)
        {
            AddDeleteRange(start, end.IsEmpty ? Successor(LastStoredKey()!) : end);
        }

        return count;
    }

    public void Dispose() => Rocks.rocksdb_writebatch_destroy(Handle);

    private void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value)
    {
        fixed (byte* k = key)
        fixed (byte* v = value)
        {
            Rocks.rocksdb_writebatch_put(Handle, k, (UIntPtr)key.Length, RocksDbStore.NonNull(v), (UIntPtr)value.Length);
        }
    }

    private void Delete(ReadOnlySpan<byte> key)
    {
        fixed (byte* k = key)
        {
            Rocks.rocksdb_writebatch_delete(Handle, k, (UIntPtr)key.Length);
        }
    }

    private void DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, WriteBatch batch)
    {
        if (!end.IsEmpty)
        {
            if (start.SequenceCompareTo(end) < 0)
            {
                AddDeleteRange(start, end);
            }

            return;
        }

        // An open end: delete up to just past the greatest key that exists, in the store or put earlier in this batch.
        var last = LastKey(batch);
        if (last is not null && start.SequenceCompareTo(last) <= 0)
        {
            AddDeleteRange(start, Successor(last));
        }
    }

    private void AddDeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end)
    {
        fixed (byte* s = start)
        fixed (byte* e = end)
        {
            Rocks.rocksdb_writebatch_delete_range(Handle, RocksDbStore.NonNull(s), (UIntPtr)start.Length, e, (UIntPtr)end.Length);
        }
    }

    private bool Holds(ReadOnlySpan<byte> key, ReadOnlySpan<byte> expected)
    {
        IntPtr pinned;
        var error = IntPtr.Zero;
        fixed (byte* k = key)
        {
            pinned = Rocks.rocksdb_get_pinned(store.Db, store.ReadOptions, k, (UIntPtr)key.Length, out error);
        }

        RocksDbErrors.ThrowIf(error, store.Path, "Checking a precondition");
        if (pinned == IntPtr.Zero)
        {
            return false;
        }

        try
        {
            var value = Rocks.rocksdb_pinnableslice_value(pinned, out var length);
            return new ReadOnlySpan<byte>((void*)value, checked((int)length)).SequenceEqual(expected);
        }
        finally
        {
            Rocks.rocksdb_pinnableslice_destroy(pinned);
        }
    }

    /// <summary>The greatest key in the store or put anywhere in <paramref name="batch"/> (a later put only widens the range harmlessly); null when there is none.</summary>
    private byte[]? LastKey(WriteBatch batch)
    {
        if (!_lastKeyKnown)
        {
            _lastKey = LastStoredKey();
            for (var i = 0; i < batch.OperationCount; i++)
            {
                var operation = batch.Operation(i);
                var key = batch.First(operation);
                if (operation.Kind == BatchEntryKind.Put && (_lastKey is null || key.SequenceCompareTo(_lastKey) > 0))
                {
                    _lastKey = key.ToArray();
                }
            }

            _lastKeyKnown = true;
        }

        return _lastKey;
    }

    private byte[]? LastStoredKey()
    {
        var iterator = Rocks.rocksdb_create_iterator(store.Db, store.ReadOptions);
        try
        {
            Rocks.rocksdb_iter_seek_to_last(iterator);
            if (Rocks.rocksdb_iter_valid(iterator) == 0)
            {
                var error = IntPtr.Zero;
                Rocks.rocksdb_iter_get_error(iterator, out error);
                RocksDbErrors.ThrowIf(error, store.Path, "Finding the last key");
                return null;
            }

            var key = Rocks.rocksdb_iter_key(iterator, out var length);
            return new ReadOnlySpan<byte>((void*)key, checked((int)length)).ToArray();
        }
        finally
        {
            Rocks.rocksdb_iter_destroy(iterator);
        }
    }

    // The smallest key after `key` in memcmp order: key followed by a zero byte.
    private static byte[] Successor(byte[] key) => [.. key, 0];

    // Adds each operation of `batch` to `target`; range deletes read the store and the batch's puts (see LastKey).
    private readonly struct OperationAdder(RocksDbBatch target, WriteBatch batch) : IBatchOperationVisitor
    {
        public void Put(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => target.Put(key, value);

        public void Delete(ReadOnlySpan<byte> key) => target.Delete(key);

        public void DeletePrefix(ReadOnlySpan<byte> prefix) =>
            target.DeleteRange(prefix, KeyOrder.TryGetPrefixEnd(prefix, out var end) ? end : default, batch);

        public void DeleteRange(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end) => target.DeleteRange(start, end, batch);
    }
}

using System.Runtime.InteropServices;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>
/// A scan over [start, end): a RocksDB iterator, positioned by <c>Seek</c>, bounded by <c>iterate_upper_bound</c>,
/// with total-order seek. The iterator reads the state of the moment it was created (RocksDB gives an iterator without
/// an explicit snapshot an implicit one at that sequence number, and pins its memtables and files), so the scan never
/// sees later writes; an explicit snapshot would add nothing but two turns of the database's mutex per scan.
/// <see cref="Key"/> and <see cref="Value"/> point into the iterator's memory until the next <see cref="MoveNext"/>.
/// </summary>
internal sealed unsafe class RocksDbCursor : IKeyValueCursor
{
    private readonly RocksDbStore _store;
    private readonly bool _keysOnly;
    private IntPtr _iterator;
    private IntPtr _readOptions;
    private byte* _upperBound;
    private bool _started;
    private bool _onItem;
    private byte* _key;
    private int _keyLength;
    private byte* _value;
    private int _valueLength;

    public RocksDbCursor(RocksDbStore store, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        _store = store;
        _keysOnly = keysOnly;
        _readOptions = Rocks.rocksdb_readoptions_create();
        Rocks.rocksdb_readoptions_set_total_order_seek(_readOptions, 1);
        if (!end.IsEmpty)
        {
            // The C API keeps a pointer to the bound, not a copy: it lives in native memory as long as the iterator.
            _upperBound = (byte*)NativeMemory.Alloc((nuint)end.Length);
            end.CopyTo(new Span<byte>(_upperBound, end.Length));
            Rocks.rocksdb_readoptions_set_iterate_upper_bound(_readOptions, _upperBound, (UIntPtr)end.Length);
        }

        _iterator = Rocks.rocksdb_create_iterator(store.Db, _readOptions);
        fixed (byte* s = start)
        {
            Rocks.rocksdb_iter_seek(_iterator, RocksDbStore.NonNull(s), (UIntPtr)start.Length);
        }

        store.Register(this);
    }

    public ReadOnlySpan<byte> Key => _onItem ? new ReadOnlySpan<byte>(_key, _keyLength) : ThrowNotOnItem();

    public ReadOnlySpan<byte> Value => _onItem ? new ReadOnlySpan<byte>(_value, _valueLength) : ThrowNotOnItem();

    public bool MoveNext()
    {
        // Holding the store keeps it from closing the iterator under us; a cursor is used by one thread at a time.
        _store.Acquire();
        try
        {
            ObjectDisposedException.ThrowIf(_iterator == IntPtr.Zero, this);
            if (_started)
            {
                if (!_onItem)
                {
                    return false;
                }

                Rocks.rocksdb_iter_next(_iterator);
            }

            _started = true;
            _onItem = Rocks.rocksdb_iter_valid(_iterator) != 0;
            if (!_onItem)
            {
                var error = IntPtr.Zero;
                Rocks.rocksdb_iter_get_error(_iterator, out error);
                RocksDbErrors.ThrowIf(error, _store.Path, "Scanning");
                return false;
            }

            _key = (byte*)Rocks.rocksdb_iter_key(_iterator, out var keyLength);
            _keyLength = checked((int)keyLength);
            if (!_keysOnly)
            {
                _value = (byte*)Rocks.rocksdb_iter_value(_iterator, out var valueLength);
                _valueLength = checked((int)valueLength);
            }

            return true;
        }
        finally
        {
            _store.Release();
        }
    }

    public void Dispose()
    {
        if (_store.TryAcquire())
        {
            try
            {
                Close();
            }
            finally
            {
                _store.Release();
            }
        }
    }

    /// <summary>Releases the iterator and bound; called by <see cref="Dispose"/>, or by the store when it closes first.</summary>
    public void Close()
    {
        lock (this)
        {
            _onItem = false;
            if (_iterator == IntPtr.Zero)
            {
                return;
            }

            Rocks.rocksdb_iter_destroy(_iterator);
            Rocks.rocksdb_readoptions_destroy(_readOptions);
            NativeMemory.Free(_upperBound);
            _iterator = _readOptions = IntPtr.Zero;
            _upperBound = null;
        }

        _store.Unregister(this);
    }

    private static ReadOnlySpan<byte> ThrowNotOnItem() =>
        throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");
}

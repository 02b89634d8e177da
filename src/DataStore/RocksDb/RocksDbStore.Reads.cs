using System.Buffers;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

// Reads: point reads straight from RocksDB (no gate; the base class counts them in flight, so Dispose waits) and scans.
internal sealed unsafe partial class RocksDbStore
{
    /// <summary>The default read options (latest state, no snapshot).</summary>
    internal IntPtr ReadOptions => _readOptions;

    protected override bool GetCore(ReadOnlySpan<byte> key, IBufferWriter<byte> destination)
    {
        IntPtr pinned;
        var error = IntPtr.Zero;
        fixed (byte* k = key)
        {
            pinned = Rocks.rocksdb_get_pinned(Db, _readOptions, k, (UIntPtr)key.Length, out error);
        }

        RocksDbErrors.ThrowIf(error, _directory, "Get");
        if (pinned == IntPtr.Zero)
        {
            return false;
        }

        try
        {
            var value = Rocks.rocksdb_pinnableslice_value(pinned, out var length);
            destination.Write(new ReadOnlySpan<byte>((void*)value, checked((int)length)));
            return true;
        }
        finally
        {
            Rocks.rocksdb_pinnableslice_destroy(pinned);
        }
    }

    protected override int GetCore(ReadOnlySpan<byte> key, Span<byte> destination)
    {
        UIntPtr length;
        byte found;
        var error = IntPtr.Zero;
        fixed (byte* k = key)
        fixed (byte* d = destination)
        {
            // Copies straight into the caller's buffer when the value fits; nothing is allocated on either side.
            Rocks.rocksdb_get_into_buffer(Db, _readOptions, k, (UIntPtr)key.Length, NonNull(d), (UIntPtr)destination.Length, out length, out found, out error);
        }

        RocksDbErrors.ThrowIf(error, _directory, "Get");
        return found == 0 ? -1 : checked((int)length);
    }

    protected override bool HaveKeyCore(ReadOnlySpan<byte> key) => Exists(key);

    protected override IKeyValueCursor ScanCore(ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly) =>
        new RocksDbCursor(this, start, end, keysOnly);

    /// <summary>True when the key is present; reads without copying the value (a Get into an empty buffer).</summary>
    internal bool Exists(ReadOnlySpan<byte> key)
    {
        byte found;
        var error = IntPtr.Zero;
        fixed (byte* k = key)
        {
            Rocks.rocksdb_get_into_buffer(Db, _readOptions, k, (UIntPtr)key.Length, EmptyBytes, UIntPtr.Zero, out _, out found, out error);
        }

        RocksDbErrors.ThrowIf(error, _directory, "HaveKey");
        return found != 0;
    }
}

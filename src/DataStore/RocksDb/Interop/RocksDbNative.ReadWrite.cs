using System.Runtime.InteropServices;

namespace DataStore.RocksDb.Interop;

// Point reads and writes, write batches, snapshots, and the read and write options they take.
internal static unsafe partial class RocksDbNative
{
    [LibraryImport(Library)]
    public static partial nint rocksdb_readoptions_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_readoptions_destroy(nint options);

    [LibraryImport(Library)]
    public static partial void rocksdb_readoptions_set_snapshot(nint options, nint snapshot);

    [LibraryImport(Library)]
    public static partial void rocksdb_readoptions_set_total_order_seek(nint options, byte value);

    /// <summary>Keeps a pointer to <paramref name="key"/>, not a copy: it must outlive every iterator made with the options.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_readoptions_set_iterate_upper_bound(nint options, byte* key, nuint keyLength);

    [LibraryImport(Library)]
    public static partial nint rocksdb_writeoptions_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_writeoptions_destroy(nint options);

    [LibraryImport(Library)]
    public static partial void rocksdb_writeoptions_set_sync(nint options, byte value);

    [LibraryImport(Library)]
    public static partial void rocksdb_put(nint db, nint options, byte* key, nuint keyLength, byte* value, nuint valueLength, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_delete(nint db, nint options, byte* key, nuint keyLength, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_delete_range_cf(
        nint db, nint options, nint family, byte* start, nuint startLength, byte* end, nuint endLength, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_write(nint db, nint options, nint batch, out nint error);

    /// <summary>A <c>rocksdb_pinnableslice_t</c> holding the value, or zero when the key is absent (or on error).</summary>
    [LibraryImport(Library)]
    public static partial nint rocksdb_get_pinned(nint db, nint options, byte* key, nuint keyLength, out nint error);

    [LibraryImport(Library)]
    public static partial nint rocksdb_pinnableslice_value(nint slice, out nuint length);

    [LibraryImport(Library)]
    public static partial void rocksdb_pinnableslice_destroy(nint slice);

    /// <summary>
    /// Reads the value into <paramref name="buffer"/> when it fits (returns 1); <paramref name="length"/> is its real length
    /// and <paramref name="found"/> says whether the key exists, fitting or not.
    /// </summary>
    [LibraryImport(Library)]
    public static partial byte rocksdb_get_into_buffer(
        nint db, nint options, byte* key, nuint keyLength, byte* buffer, nuint bufferSize, out nuint length, out byte found, out nint error);

    [LibraryImport(Library)]
    public static partial nint rocksdb_writebatch_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_writebatch_destroy(nint batch);

    [LibraryImport(Library)]
    public static partial void rocksdb_writebatch_put(nint batch, byte* key, nuint keyLength, byte* value, nuint valueLength);

    [LibraryImport(Library)]
    public static partial void rocksdb_writebatch_put_cf(nint batch, nint family, byte* key, nuint keyLength, byte* value, nuint valueLength);

    [LibraryImport(Library)]
    public static partial void rocksdb_writebatch_delete(nint batch, byte* key, nuint keyLength);

    [LibraryImport(Library)]
    public static partial void rocksdb_writebatch_delete_range(nint batch, byte* start, nuint startLength, byte* end, nuint endLength);

    [LibraryImport(Library)]
    public static partial nint rocksdb_create_snapshot(nint db);

    [LibraryImport(Library)]
    public static partial void rocksdb_release_snapshot(nint db, nint snapshot);

    [LibraryImport(Library)]
    public static partial ulong rocksdb_get_latest_sequence_number(nint db);
}

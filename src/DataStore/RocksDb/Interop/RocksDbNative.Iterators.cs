using System.Runtime.InteropServices;

namespace DataStore.RocksDb.Interop;

// Iterators: scans, the change log's reads, and finding the last key.
internal static unsafe partial class RocksDbNative
{
    [LibraryImport(Library)]
    public static partial nint rocksdb_create_iterator(nint db, nint options);

    [LibraryImport(Library)]
    public static partial nint rocksdb_create_iterator_cf(nint db, nint options, nint family);

    [LibraryImport(Library)]
    public static partial void rocksdb_iter_destroy(nint iterator);

    [LibraryImport(Library)]
    public static partial byte rocksdb_iter_valid(nint iterator);

    [LibraryImport(Library)]
    public static partial void rocksdb_iter_seek(nint iterator, byte* key, nuint keyLength);

    [LibraryImport(Library)]
    public static partial void rocksdb_iter_seek_to_last(nint iterator);

    [LibraryImport(Library)]
    public static partial void rocksdb_iter_next(nint iterator);

    /// <summary>The current key, valid until the iterator moves.</summary>
    [LibraryImport(Library)]
    public static partial nint rocksdb_iter_key(nint iterator, out nuint length);

    /// <summary>The current value, valid until the iterator moves.</summary>
    [LibraryImport(Library)]
    public static partial nint rocksdb_iter_value(nint iterator, out nuint length);

    /// <summary>Sets <paramref name="error"/> when the iterator stopped on an error rather than at the end.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_iter_get_error(nint iterator, out nint error);
}

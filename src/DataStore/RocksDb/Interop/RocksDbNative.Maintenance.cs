using System.Runtime.InteropServices;

namespace DataStore.RocksDb.Interop;

// Maintenance: flushes, WAL sync, compaction, checkpoints (backup) and checksum verification.
internal static unsafe partial class RocksDbNative
{
    [LibraryImport(Library)]
    public static partial nint rocksdb_flushoptions_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_flushoptions_destroy(nint options);

    [LibraryImport(Library)]
    public static partial void rocksdb_flushoptions_set_wait(nint options, byte value);

    [LibraryImport(Library)]
    public static partial void rocksdb_flush(nint db, nint options, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_flush_cf(nint db, nint options, nint family, out nint error);

    /// <summary>Writes the WAL's buffer to its file, and syncs it when <paramref name="sync"/> is 1.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_flush_wal(nint db, byte sync, out nint error);

    /// <summary>Reads an integer property of the database (<c>rocksdb.num-snapshots</c>, ...); returns 0 when it has it.</summary>
    [LibraryImport(Library, StringMarshalling = StringMarshalling.Utf8)]
    public static partial int rocksdb_property_int(nint db, string name, out ulong value);

    [LibraryImport(Library)]
    public static partial nint rocksdb_compactoptions_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_compactoptions_destroy(nint options);

    /// <summary>RocksDB's <c>BottommostLevelCompaction</c>: 0 skip, 1 if a compaction filter, 2 force, 3 force optimized.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_compactoptions_set_bottommost_level_compaction(nint options, byte mode);

    /// <summary>Compacts [start, limit); null bounds mean the whole key space.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_compact_range_opt(nint db, nint options, byte* start, nuint startLength, byte* limit, nuint limitLength);

    [LibraryImport(Library)]
    public static partial nint rocksdb_checkpoint_object_create(nint db, out nint error);

    /// <summary>Writes a checkpoint into the directory <paramref name="directory"/> (a UTF-8 path), which must not exist yet.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_checkpoint_create(nint checkpoint, nint directory, ulong logSizeForFlush, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_checkpoint_object_destroy(nint checkpoint);

    /// <summary>Reads every live table file and checks each block's checksum.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_verify_checksum(nint db, out nint error);
}

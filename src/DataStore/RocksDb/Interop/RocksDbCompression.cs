namespace DataStore.RocksDb.Interop;

/// <summary>RocksDB's table-file compression (the C API's <c>rocksdb_*_compression</c> values).</summary>
internal enum RocksDbCompression
{
    None = 0,
    Snappy = 1,
    Lz4 = 4,
    Zstd = 7,
}

using DataStore.RocksDb.Interop;

namespace DataStore.RocksDb;

/// <summary>The RocksDB options DataStore opens every store with (ADR 0005 says how they were chosen).</summary>
/// <param name="BlockCacheBytes">The LRU cache of uncompressed data blocks, shared by reads and scans.</param>
/// <param name="WriteBufferBytes">One memtable; up to two are held (one being flushed), so twice this is the write-side memory.</param>
/// <param name="BloomBitsPerKey">Bloom filter bits per key in every table file (0 = none); lets a miss skip reading the file.</param>
/// <param name="Compression">How table files are compressed.</param>
/// <param name="PipelinedWrites">RocksDB's <c>enable_pipelined_write</c>: one group of concurrent writers appends to the WAL while the previous group writes its memtable.</param>
internal sealed record RocksDbTuning(long BlockCacheBytes, long WriteBufferBytes, double BloomBitsPerKey, RocksDbCompression Compression, bool PipelinedWrites)
{
    /// <summary>The defaults for a desktop application: about 64 MiB at most (32 MiB cache, two 16 MiB memtables).</summary>
    public static RocksDbTuning Desktop { get; } = new(32L << 20, 16L << 20, 10, RocksDbCompression.Lz4, PipelinedWrites: true);

    /// <summary>The native anchor's settings (8 MiB cache, RocksDB's defaults otherwise), for like-for-like benchmarks.</summary>
    public static RocksDbTuning Anchor { get; } = new(8L << 20, 64L << 20, 0, RocksDbCompression.Snappy, PipelinedWrites: false);

    /// <summary>What new store instances use: <see cref="Desktop"/>, or <see cref="Anchor"/> when the environment variable
    /// <c>DATASTORE_ROCKSDB_TUNING</c> is <c>anchor</c> (for benchmarks against the native anchor only).</summary>
    public static RocksDbTuning Current { get; set; } =
        string.Equals(Environment.GetEnvironmentVariable("DATASTORE_ROCKSDB_TUNING"), "anchor", StringComparison.OrdinalIgnoreCase) ? Anchor : Desktop;
}

using DataStore.RocksDb.Interop;

namespace DataStore.RocksDb;

/// <summary>The RocksDB options DataStore opens every store with (ADR 0005 says how they were chosen).</summary>
/// <param name="BlockCacheBytes">The LRU cache of uncompressed data blocks (and, with <see cref="IndexAndFiltersInCache"/>, index and filter blocks), shared by reads and scans.</param>
/// <param name="WriteBufferBytes">One memtable; up to two are held (one being flushed), so twice this is the write-side memory.</param>
/// <param name="BloomBitsPerKey">Bloom filter bits per key in every table file (0 = none); lets a miss skip reading the file.</param>
/// <param name="Compression">How table files are compressed (below <see cref="UncompressedLevels"/>).</param>
/// <param name="PipelinedWrites">RocksDB's <c>enable_pipelined_write</c>: one group of concurrent writers appends to the WAL while the previous group writes its memtable.</param>
internal sealed record RocksDbTuning(long BlockCacheBytes, long WriteBufferBytes, double BloomBitsPerKey, RocksDbCompression Compression, bool PipelinedWrites)
{
    private const long MinCacheBytes = 32L << 20;
    private const long MaxCacheBytes = 64L << 20;

    /// <summary>Index and filter blocks live in the block cache (counted in its capacity), with level 0's pinned there.</summary>
    public bool IndexAndFiltersInCache { get; init; }

    /// <summary>How many levels from level 0 are stored uncompressed (small, young and read most); the rest use <see cref="Compression"/>.</summary>
    public int UncompressedLevels { get; init; }

    /// <summary>A hash index in each data block, so a point lookup finds its key in the block without a binary search.</summary>
    public bool BlockHashIndex { get; init; }

    /// <summary>A whole-key bloom filter over each memtable, so a miss skips the memtable's skip-list search.</summary>
    public bool MemtableFilter { get; init; }

    /// <summary>
    /// The defaults for a desktop application: a block cache of 1/512 of the machine's memory between 32 and 64 MiB
    /// (<see cref="CacheFor"/>; it fills only as blocks are read), two 16 MiB memtables, bloom filters kept in the cache,
    /// level 0 (flushed memtables, soon compacted) uncompressed and LZ4 below: with RocksDB's dynamic level sizes a small
    /// store's data sits in one level below level 0, which an uncompressed level 1 would leave uncompressed.
    /// </summary>
    public static RocksDbTuning Desktop { get; } = new(CacheFor(GC.GetGCMemoryInfo().TotalAvailableMemoryBytes), 16L << 20, 10, RocksDbCompression.Lz4, PipelinedWrites: true)
    {
        IndexAndFiltersInCache = true,
        UncompressedLevels = 1,
        BlockHashIndex = true,
        MemtableFilter = true,
    };

    /// <summary>The desktop settings before the read tuning (32 MiB cache, filters outside it, LZ4 on every level), for A/B benchmarks only.</summary>
    public static RocksDbTuning Baseline { get; } = new(32L << 20, 16L << 20, 10, RocksDbCompression.Lz4, PipelinedWrites: true);

    /// <summary>The native anchor's settings (8 MiB cache, RocksDB's defaults otherwise), for like-for-like benchmarks.</summary>
    public static RocksDbTuning Anchor { get; } = new(8L << 20, 64L << 20, 0, RocksDbCompression.Snappy, PipelinedWrites: false);

    /// <summary>The desktop settings with RocksDB's single-stage write queue instead of pipelined writes, for A/B benchmarks only.</summary>
    public static RocksDbTuning Unpipelined { get; } = Desktop with { PipelinedWrites = false };

    /// <summary>The desktop settings without the memtable's bloom filter, for A/B benchmarks only.</summary>
    public static RocksDbTuning NoMemtableFilter { get; } = Desktop with { MemtableFilter = false };

    /// <summary>What new store instances use: <see cref="Desktop"/>, or <see cref="Anchor"/> / <see cref="Baseline"/> /
    /// <see cref="Unpipelined"/> / <see cref="NoMemtableFilter"/> when the environment variable <c>DATASTORE_ROCKSDB_TUNING</c>
    /// is <c>anchor</c> / <c>baseline</c> / <c>unpipelined</c> / <c>nomemtablefilter</c> (for benchmarks only).</summary>
    public static RocksDbTuning Current { get; set; } = Environment.GetEnvironmentVariable("DATASTORE_ROCKSDB_TUNING")?.ToUpperInvariant() switch
    {
        "ANCHOR" => Anchor,
        "BASELINE" => Baseline,
        "UNPIPELINED" => Unpipelined,
        "NOMEMTABLEFILTER" => NoMemtableFilter,
        _ => Desktop,
    };

    /// <summary>The block cache for a machine with <paramref name="memoryBytes"/> of memory: 1/512 of it, at least 32 and at most 64 MiB.</summary>
    public static long CacheFor(long memoryBytes) => Math.Clamp(memoryBytes / 512, MinCacheBytes, MaxCacheBytes);
}

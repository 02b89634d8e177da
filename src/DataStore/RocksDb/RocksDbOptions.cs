using DataStore.RocksDb.Interop;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

/// <summary>The native options a store is opened with, and the block cache they share; destroyed when the store closes.</summary>
internal sealed class RocksDbOptions : IDisposable
{
    private const int KeptInfoLogs = 3;
    private const ulong InfoLogBytes = 1 << 20;
    private const int Levels = 7; // RocksDB's num_levels, left at its default

    private RocksDbOptions(IntPtr options, IntPtr tableOptions, IntPtr cache)
    {
        Handle = options;
        TableOptions = tableOptions;
        Cache = cache;
    }

    /// <summary>The <c>rocksdb_options_t</c> to open with.</summary>
    public IntPtr Handle { get; private set; }

    private IntPtr TableOptions { get; set; }

    private IntPtr Cache { get; set; }

    public static RocksDbOptions Create(RocksDbTuning tuning)
    {
        var options = Rocks.rocksdb_options_create();
        Rocks.rocksdb_options_set_create_if_missing(options, 1);
        Rocks.rocksdb_options_set_write_buffer_size(options, (UIntPtr)tuning.WriteBufferBytes);
        Rocks.rocksdb_options_set_compression(options, tuning.Compression);
        Rocks.rocksdb_options_set_enable_pipelined_write(options, tuning.PipelinedWrites ? (byte)1 : (byte)0);
        Rocks.rocksdb_options_set_keep_log_file_num(options, (UIntPtr)KeptInfoLogs);
        Rocks.rocksdb_options_set_max_log_file_size(options, (UIntPtr)InfoLogBytes);

        // A torn last WAL record (a crash mid-append) is dropped as RocksDB always does, but a bad record followed by
        // intact ones is refused as corruption; the default (point in time) stops replay there without a word (ADR 0005).
        Rocks.rocksdb_options_set_wal_recovery_mode(options, RocksDbWalRecovery.TolerateCorruptedTailRecords);

        var table = Rocks.rocksdb_block_based_options_create();
        var cache = Rocks.rocksdb_cache_create_lru((UIntPtr)tuning.BlockCacheBytes);
        Rocks.rocksdb_block_based_options_set_block_cache(table, cache);
        if (tuning.BloomBitsPerKey > 0)
        {
            // The table options take ownership of the filter policy.
            Rocks.rocksdb_block_based_options_set_filter_policy(table, Rocks.rocksdb_filterpolicy_create_bloom(tuning.BloomBitsPerKey));
        }

        ApplyReadTuning(options, table, tuning);
        Rocks.rocksdb_options_set_block_based_table_factory(options, table);
        return new RocksDbOptions(options, table, cache);
    }

    // Index and filter blocks in the cache (level 0's pinned), a hash index per data block, a memtable filter, and the
    // upper levels uncompressed (ADR 0005, "Read path").
    private static unsafe void ApplyReadTuning(IntPtr options, IntPtr table, RocksDbTuning tuning)
    {
        if (tuning.IndexAndFiltersInCache)
        {
            Rocks.rocksdb_block_based_options_set_cache_index_and_filter_blocks(table, 1);
            Rocks.rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(table, 1);
            Rocks.rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(table, 1);
        }

        if (tuning.BlockHashIndex)
        {
            Rocks.rocksdb_block_based_options_set_data_block_index_type(table, 1);
            Rocks.rocksdb_block_based_options_set_data_block_hash_ratio(table, 0.75);
        }

        if (tuning.MemtableFilter)
        {
            Rocks.rocksdb_options_set_memtable_whole_key_filtering(options, 1);
            Rocks.rocksdb_options_set_memtable_prefix_bloom_size_ratio(options, 0.02);
        }

        if (tuning.UncompressedLevels > 0)
        {
            Span<int> levels = stackalloc int[Levels];
            levels.Fill((int)tuning.Compression);
            levels[..Math.Min(tuning.UncompressedLevels, Levels)].Fill((int)RocksDbCompression.None);
            fixed (int* first = levels)
            {
                Rocks.rocksdb_options_set_compression_per_level(options, first, (nuint)Levels);
            }
        }
    }

    public void Dispose()
    {
        if (Handle != IntPtr.Zero)
        {
            Rocks.rocksdb_options_destroy(Handle);
            Rocks.rocksdb_block_based_options_destroy(TableOptions);
            Rocks.rocksdb_cache_destroy(Cache);
            Handle = TableOptions = Cache = IntPtr.Zero;
        }
    }
}

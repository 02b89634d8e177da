using System.Runtime.InteropServices;

namespace DataStore.RocksDb.Interop;

// Opening and closing a database, its column families, and the options it is opened with.
internal static unsafe partial class RocksDbNative
{
    [LibraryImport(Library)]
    public static partial nint rocksdb_open(nint options, nint name, out nint error);

    [LibraryImport(Library)]
    public static partial nint rocksdb_open_for_read_only(nint options, nint name, byte errorIfWalFileExists, out nint error);

    /// <summary>Opens with every column family; <paramref name="handles"/> receives one handle per name.</summary>
    [LibraryImport(Library, StringMarshalling = StringMarshalling.Utf8)]
    public static partial nint rocksdb_open_column_families(
        nint options, nint name, int count, string[] names, ReadOnlySpan<nint> familyOptions, Span<nint> handles, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_close(nint db);

    /// <summary>The names of the column families (a <c>char**</c> of <paramref name="count"/> UTF-8 strings).</summary>
    [LibraryImport(Library, StringMarshalling = StringMarshalling.Utf8)]
    public static partial nint rocksdb_list_column_families(nint options, string name, out nuint count, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_list_column_families_destroy(nint list, nuint count);

    [LibraryImport(Library, StringMarshalling = StringMarshalling.Utf8)]
    public static partial nint rocksdb_create_column_family(nint db, nint options, string name, out nint error);

    [LibraryImport(Library)]
    public static partial void rocksdb_column_family_handle_destroy(nint family);

    [LibraryImport(Library)]
    public static partial nint rocksdb_options_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_options_destroy(nint options);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_create_if_missing(nint options, byte value);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_write_buffer_size(nint options, nuint bytes);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_compression(nint options, RocksDbCompression compression);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_enable_pipelined_write(nint options, byte value);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_keep_log_file_num(nint options, nuint count);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_max_log_file_size(nint options, nuint bytes);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_wal_recovery_mode(nint options, RocksDbWalRecovery mode);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_block_based_table_factory(nint options, nint tableOptions);

    [LibraryImport(Library)]
    public static partial nint rocksdb_block_based_options_create();

    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_destroy(nint tableOptions);

    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_block_cache(nint tableOptions, nint cache);

    /// <summary>Hands <paramref name="policy"/> to the table options, which own it from then on.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_filter_policy(nint tableOptions, nint policy);

    [LibraryImport(Library)]
    public static partial nint rocksdb_filterpolicy_create_bloom(double bitsPerKey);

    [LibraryImport(Library)]
    public static partial nint rocksdb_cache_create_lru(nuint capacity);

    [LibraryImport(Library)]
    public static partial void rocksdb_cache_destroy(nint cache);

    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_cache_index_and_filter_blocks(nint tableOptions, byte value);

    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(nint tableOptions, byte value);

    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(nint tableOptions, byte value);

    /// <summary>0 = binary search within a data block, 1 = binary search plus a hash index for point lookups.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_data_block_index_type(nint tableOptions, int type);

    [LibraryImport(Library)]
    public static partial void rocksdb_block_based_options_set_data_block_hash_ratio(nint tableOptions, double ratio);

    /// <summary>One compression per level, <paramref name="count"/> levels from level 0.</summary>
    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_compression_per_level(nint options, int* levels, nuint count);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_memtable_prefix_bloom_size_ratio(nint options, double ratio);

    [LibraryImport(Library)]
    public static partial void rocksdb_options_set_memtable_whole_key_filtering(nint options, byte value);
}

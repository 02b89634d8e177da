using System.Globalization;
using System.Text.RegularExpressions;

namespace DataStore.Tests.RocksDb;

/// <summary>The read-path settings of ADR 0005, as RocksDB itself records them in the store's OPTIONS file and info log.</summary>
public sealed partial class RocksDbTuningTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_store_keeps_index_and_filters_in_a_block_cache_sized_to_the_machine_and_leaves_level_0_uncompressed()
    {
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.RocksDb }))
        {
            store.Put("k"u8, "v"u8);
        }

        var options = File.ReadAllText(Directory.EnumerateFiles(StorePath, "OPTIONS-*").Order(StringComparer.Ordinal).Last());
        Assert.Contains("cache_index_and_filter_blocks=true", options, StringComparison.Ordinal);
        Assert.Contains("pin_l0_filter_and_index_blocks_in_cache=true", options, StringComparison.Ordinal);
        Assert.Contains("data_block_index_type=kDataBlockBinaryAndHash", options, StringComparison.Ordinal);
        Assert.Contains("filter_policy=bloomfilter", options, StringComparison.Ordinal);
        Assert.Contains("memtable_whole_key_filtering=true", options, StringComparison.Ordinal);
        Assert.Contains("compression_per_level=kNoCompression:kLZ4Compression:kLZ4Compression:kLZ4Compression:kLZ4Compression:kLZ4Compression:kLZ4Compression", options, StringComparison.Ordinal);

        // 1/512 of the machine's memory, between 32 and 64 MiB.
        var memory = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
        var expected = Math.Clamp(memory / 512, 32L << 20, 64L << 20);
        var log = File.ReadAllText(Path.Combine(StorePath, "LOG"));
        var capacity = long.Parse(Capacity().Match(log).Groups[1].Value, CultureInfo.InvariantCulture);
        Assert.Equal(expected, capacity);
    }

    public void Dispose() => _directory.Dispose();

    [GeneratedRegex(@"capacity : (\d+)")]
    private static partial Regex Capacity();
}

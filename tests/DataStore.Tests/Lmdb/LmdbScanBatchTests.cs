using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// LMDB scans copy pairs out of the map in batches: pairs of every size, long keys among short ones and ranges that
/// end inside a batch must come out exactly as stored, in order.
/// </summary>
public sealed class LmdbScanBatchTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Pairs_of_mixed_sizes_and_long_keys_scan_in_order_whole_and_by_range()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Lmdb });
        var expected = new SortedDictionary<byte[], byte[]>(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)));
        int[] sizes = [0, 1, 100, 10_000, 40_000];
        for (var i = 0; i < 600; i++)
        {
            // Every 50th key is longer than LMDB's 511 bytes, so groups of long keys sit between batches of short ones.
            var key = i % 50 == 7 ? [.. "k"u8, (byte)(i >> 8), (byte)i, .. new byte[600]] : new[] { (byte)'k', (byte)(i >> 8), (byte)i };
            var value = new byte[sizes[i % sizes.Length]];
            Array.Fill(value, (byte)i);
            store.Put(key, value);
            expected[key] = value;
        }

        AssertScan(expected, StoreAssert.Scan(store, "k"u8.ToArray()));
        byte[] from = [(byte)'k', 0, 90], to = [(byte)'k', 1, 30];
        using var cursor = store.ScanRange(from, to);
        var ranged = new List<(byte[] Key, byte[] Value)>();
        while (cursor.MoveNext())
        {
            ranged.Add((cursor.Key.ToArray(), cursor.Value.ToArray()));
        }

        AssertScan(new SortedDictionary<byte[], byte[]>(
            expected.Where(p => p.Key.AsSpan().SequenceCompareTo(from) >= 0 && p.Key.AsSpan().SequenceCompareTo(to) < 0).ToDictionary(),
            expected.Comparer), ranged);
    }

    [Fact]
    public void A_scan_stopped_after_its_first_pair_reads_it_and_releases_the_store()
    {
        var path = _directory.Sub("store");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb }))
        {
            for (var i = 0; i < 100; i++)
            {
                store.Put([(byte)'k', (byte)i], [(byte)i]);
            }

            using var cursor = store.ScanPrefix("k"u8);
            Assert.True(cursor.MoveNext());
            Assert.Equal([(byte)'k', 0], cursor.Key.ToArray());
            Assert.Equal([(byte)0], cursor.Value.ToArray());
        }

        using var reopened = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb });
        Assert.Equal(100, StoreAssert.Scan(reopened, "k"u8.ToArray()).Count);
    }

    public void Dispose() => _directory.Dispose();

    private static void AssertScan(SortedDictionary<byte[], byte[]> expected, List<(byte[] Key, byte[] Value)> scanned)
    {
        Assert.Equal(expected.Count, scanned.Count);
        var i = 0;
        foreach (var (key, value) in expected)
        {
            Assert.Equal(key, scanned[i].Key);
            Assert.Equal(value, scanned[i].Value);
            i++;
        }
    }
}

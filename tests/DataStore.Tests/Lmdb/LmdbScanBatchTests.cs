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

    [Fact]
    public void Batches_that_fill_their_buffer_go_on_from_the_pair_they_left_also_after_the_map_grew()
    {
        // 1,000-byte values: a batch's 16 KiB buffer fills after 16 pairs, so most visits stop on a pair they read but
        // could not take, and the next one starts there; every 40 pairs a write on the scanning thread grows the map.
        using var store = LmdbTestStores.OpenSmall(_directory.Sub("store"));
        for (var i = 0; i < 600; i++)
        {
            store.Put([(byte)'k', (byte)(i >> 8), (byte)i], LmdbTestStores.Filled(1_000, i));
        }

        var mapSize = store.MapSize;
        var seen = 0;
        using (var cursor = store.ScanPrefix("k"u8))
        {
            while (cursor.MoveNext())
            {
                Assert.Equal([(byte)'k', (byte)(seen >> 8), (byte)seen], cursor.Key.ToArray());
                Assert.Equal(LmdbTestStores.Filled(1_000, seen), cursor.Value.ToArray());
                if (++seen % 40 == 0)
                {
                    store.Put([(byte)'m', (byte)seen], LmdbTestStores.Filled(64 << 10, seen));
                }
            }
        }

        Assert.Equal(600, seen);
        Assert.True(store.MapSize > mapSize, $"the map did not grow from {mapSize} bytes");
    }

    [Fact]
    public void A_range_ends_where_unsigned_byte_order_says_for_keys_sharing_their_first_words()
    {
        // Keys of 1-40 bytes from bytes that differ in their top bit, many sharing 8 or 16 bytes: the end bound and the
        // order check compare short keys a word at a time, longer ones through SequenceCompareTo.
        var seed = Environment.TickCount;
        var random = new Random(seed);
        byte[] alphabet = [0x00, 0x01, 0x7F, 0x80, 0xFF];
        var stem = Enumerable.Range(0, 40).Select(_ => alphabet[random.Next(alphabet.Length)]).ToArray();
        byte[] NewKey() => [.. stem.AsSpan(0, random.Next(1, 41)).ToArray().Select((b, i) => random.Next(6) == 0 ? alphabet[random.Next(alphabet.Length)] : b)];
        var keys = new SortedSet<byte[]>(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)));
        while (keys.Count < 400)
        {
            keys.Add(NewKey());
        }

        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Lmdb });
        foreach (var key in keys)
        {
            store.Put(key, key);
        }

        for (var i = 0; i < 100; i++)
        {
            var (from, to) = (NewKey(), NewKey());
            if (from.AsSpan().SequenceCompareTo(to) > 0)
            {
                (from, to) = (to, from);
            }

            var expected = keys.Where(k => k.AsSpan().SequenceCompareTo(from) >= 0 && k.AsSpan().SequenceCompareTo(to) < 0).ToList();
            var scanned = StoreAssert.Range(store, from, to);
            Assert.True(
                expected.Select(Convert.ToHexString).SequenceEqual(scanned.Select(p => Convert.ToHexString(p.Key))),
                $"seed {seed}: range {Convert.ToHexString(from)} to {Convert.ToHexString(to)}");
        }
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

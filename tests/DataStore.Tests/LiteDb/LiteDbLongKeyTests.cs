using DataStore.LiteDb;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// Keys past LiteDB's index-key limit: ids are the first 1,000 bytes plus a hash, so these tests force long keys
/// into one run and, with a constant hash, into one collision chain, and check order, lookups and scans.
/// </summary>
public sealed class LiteDbLongKeyTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Long_keys_sharing_their_first_1000_bytes_scan_in_key_order(bool collide)
    {
        using var store = Open(collide);
        var keys = Run(prefixLength: LiteDbKeys.Direct, count: 40, seed: 1);
        keys.Add(Bytes.Random(LiteDbKeys.Direct, 5)); // a short key at the run's boundary
        keys.Add([.. keys[0].AsSpan(0, LiteDbKeys.Direct - 1), 0x00]);
        keys.Add([.. keys[0].AsSpan(0, LiteDbKeys.Direct), 0x00]); // the smallest long key in the run
        keys.Add([.. keys[0].AsSpan(0, LiteDbKeys.Direct), 0xFF, 0xFF]);
        foreach (var key in keys)
        {
            store.Put(key, key.AsSpan(key.Length - 8).ToArray());
        }

        var sorted = keys.Distinct(ByteArrayComparer.Instance).Order(KeyOrder.Instance).ToList();
        var scanned = StoreAssert.Scan(store, []);
        Assert.Equal(sorted, scanned.Select(p => p.Key));
        Assert.All(scanned, p => Assert.Equal(p.Key.AsSpan(p.Key.Length - 8).ToArray(), p.Value));
        foreach (var key in sorted)
        {
            StoreAssert.Holds(store, key, key.AsSpan(key.Length - 8).ToArray());
        }
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void Ranges_and_prefixes_that_start_or_end_inside_a_run_see_exactly_their_keys(bool collide)
    {
        using var store = Open(collide);
        var keys = Run(prefixLength: LiteDbKeys.Direct, count: 60, seed: 2).Order(KeyOrder.Instance).ToList();
        foreach (var key in keys)
        {
            store.Put(key, [1]);
        }

        var start = keys[10];
        var end = keys[45];
        StoreAssert.KeysEqual(keys[10..45], StoreAssert.Range(store, start, end));

        var prefix = keys[20].AsSpan(0, LiteDbKeys.Direct + 1).ToArray();
        StoreAssert.KeysEqual(keys.Where(k => k.AsSpan().StartsWith(prefix)).ToList(), StoreAssert.Scan(store, prefix));

        Assert.Equal(35, store.DeleteRange(start, end));
        StoreAssert.KeysEqual([.. keys[..10], .. keys[45..]], StoreAssert.Scan(store, []));
    }

    [Fact]
    public void Colliding_long_keys_are_overwritten_and_deleted_one_by_one()
    {
        using var store = Open(collide: true);
        var keys = Run(prefixLength: LiteDbKeys.Direct + 50, count: 5, seed: 3);
        foreach (var key in keys)
        {
            store.Put(key, [1]);
        }

        store.Put(keys[2], [2]);
        store.Delete(keys[1]);
        store.Put(keys[1], [3]);
        store.Delete(keys[3]);
        store.Put([.. keys[0].AsSpan(0, LiteDbKeys.Direct + 50), 7, 7, 7], [4]); // a sixth key in the chain, after a gap

        StoreAssert.Holds(store, keys[0], [1]);
        StoreAssert.Holds(store, keys[1], [3]);
        StoreAssert.Holds(store, keys[2], [2]);
        Assert.False(store.HaveKey(keys[3]));
        Assert.Equal(5, StoreAssert.Scan(store, [], keysOnly: true).Count);
        store.Write(new WriteBatch().RequireValue(keys[2], [2]).RequireAbsent(keys[3]).Put(keys[3], [5]));
        StoreAssert.Holds(store, keys[3], [5]);
    }

    [Fact]
    public void A_one_MiB_key_with_a_large_value_round_trips_and_reopens()
    {
        var key = Bytes.Random(1 << 20, 4);
        var value = Bytes.Random(3 << 20, 5);
        using (var store = Open(collide: false))
        {
            store.Put(key, value);
        }

        using var reopened = Open(collide: false);
        StoreAssert.Holds(reopened, key, value);
        StoreAssert.KeysEqual([key], StoreAssert.Scan(reopened, key.AsSpan(0, 2000).ToArray()));
    }

    public void Dispose() => _directory.Dispose();

    private IKeyValueStore Open(bool collide)
    {
        var keys = collide ? new LiteDbKeys(_ => 42) : LiteDbKeys.Default;
        return LiteDbStore.Open(_directory.Path, Durability.Relaxed, new DataStoreOptions { Path = _directory.Path }, NullLogger.Instance, keys);
    }

    /// <summary>Keys of 1,001-1,200 bytes that share their first <paramref name="prefixLength"/> bytes.</summary>
    private static List<byte[]> Run(int prefixLength, int count, int seed)
    {
        var random = new Random(seed);
        var prefix = Bytes.Random(prefixLength, seed);
        return Enumerable.Range(0, count)
            .Select(_ => (byte[])[.. prefix, .. Bytes.Random(random.Next(1, 200), random.Next())])
            .ToList();
    }

    private sealed class ByteArrayComparer : IEqualityComparer<byte[]>
    {
        public static readonly ByteArrayComparer Instance = new();

        public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

        public int GetHashCode(byte[] obj) => Convert.ToHexString(obj).GetHashCode(StringComparison.Ordinal);
    }
}

namespace DataStore.Tests.Conformance;

/// <summary>Rule 2: keys compare as unsigned bytes, lexicographically, a proper prefix first; every scan uses that order.</summary>
public abstract class OrderContract : StoreContract
{
    private static readonly byte[][] SortedKeys =
    [
        [0x00], [0x00, 0x00], [0x00, 0xFF], [0x01], [0x01, 0x00], [0x01, 0x00, 0x00], [0x01, 0x01], [0x7F],
        [0x80], [0x80, 0x00], [0xFE, 0xFF, 0xFF], [0xFF], [0xFF, 0x00], [0xFF, 0xFF], [0xFF, 0xFF, 0xFF],
    ];

    private IKeyValueStore OpenShuffled(int seed)
    {
        var store = Open();
        var random = new Random(seed);
        foreach (var key in SortedKeys.OrderBy(_ => random.Next()))
        {
            store.Put(key, key);
        }

        return store;
    }

    [Fact]
    public void A_full_scan_returns_memcmp_order_with_a_proper_prefix_first()
    {
        var store = OpenShuffled(1);
        StoreAssert.KeysEqual(SortedKeys, StoreAssert.Scan(store, []));
    }

    [Fact]
    public void A_keys_only_scan_returns_the_same_order()
    {
        var store = OpenShuffled(2);
        StoreAssert.KeysEqual(SortedKeys, StoreAssert.Scan(store, [], keysOnly: true));
    }

    [Fact]
    public void A_range_scan_returns_the_same_order()
    {
        var store = OpenShuffled(3);
        var expected = SortedKeys.Where(k => k.AsSpan().SequenceCompareTo(new byte[] { 0x01 }) >= 0 && k.AsSpan().SequenceCompareTo(new byte[] { 0xFF, 0xFF }) < 0);
        StoreAssert.KeysEqual(expected, StoreAssert.Range(store, [0x01], [0xFF, 0xFF]));
    }

    [Fact]
    public void Prefix_scans_return_the_same_order()
    {
        var store = OpenShuffled(4);
        foreach (var prefix in new byte[][] { [0x00], [0x01], [0x01, 0x00], [0xFF], [0xFF, 0xFF] })
        {
            var expected = SortedKeys.Where(k => k.AsSpan().StartsWith(prefix));
            StoreAssert.KeysEqual(expected, StoreAssert.Scan(store, prefix));
        }
    }

    [Fact]
    public void Random_keys_scan_in_the_order_of_the_memcmp_comparer()
    {
        var store = Open();
        var random = new Random(42);
        var keys = Enumerable.Range(0, 500).Select(i => Bytes.Random(1 + random.Next(6), i)).DistinctBy(Convert.ToHexString).ToList();
        foreach (var key in keys)
        {
            store.Put(key, []);
        }

        keys.Sort(KeyOrder.Instance);
        StoreAssert.KeysEqual(keys, StoreAssert.Scan(store, []));
    }
}

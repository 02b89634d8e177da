namespace DataStore.Tests.Conformance;

/// <summary>Rules 2 and 4, read side: prefix, range and keys-only scans return exactly the seeded pairs in memcmp order.</summary>
public abstract class ReadScanContract : ReadContract
{
    [Fact]
    public void Prefix_scans_return_exactly_the_keys_with_the_prefix_in_order()
    {
        var pairs = Clustered(2_000, 5);
        var store = OpenWith(pairs);
        var sorted = pairs.OrderBy(p => p.Key, KeyOrder.Instance).ToList();
        Assert.Equal(sorted.Select(p => Bytes.Hex(p.Key) + ":" + Bytes.Hex(p.Value)), StoreAssert.Scan(store, []).Select(p => Bytes.Hex(p.Key) + ":" + Bytes.Hex(p.Value)));
        byte[][] prefixes = [[0x00], [0xFF], [0xFF, 0xFF], [0x7F, 0x80], [0x01, 0xFE, 0x00], [0x02]];
        foreach (var prefix in prefixes)
        {
            var expected = sorted.Where(p => p.Key.AsSpan().StartsWith(prefix)).Select(p => p.Key);
            StoreAssert.KeysEqual(expected, StoreAssert.Scan(store, prefix));
        }
    }

    [Fact]
    public void Range_scans_include_the_start_and_exclude_the_end()
    {
        var pairs = Clustered(800, 7);
        var store = OpenWith(pairs);
        var sorted = pairs.Select(p => p.Key).Order(KeyOrder.Instance).ToList();
        (byte[] Start, byte[] End)[] ranges = [([], []), (sorted[100], sorted[400]), (sorted[100], []), ([], sorted[5]), ([0x7F], [0x80, 0x00]), (sorted[3], sorted[3])];
        foreach (var (start, end) in ranges)
        {
            var expected = sorted.Where(k => k.AsSpan().SequenceCompareTo(start) >= 0 && (end.Length == 0 || k.AsSpan().SequenceCompareTo(end) < 0));
            StoreAssert.KeysEqual(expected, StoreAssert.Range(store, start, end));
        }
    }

    [Fact]
    public void A_keys_only_scan_returns_the_keys_with_empty_values()
    {
        var pairs = Clustered(300, 11);
        var store = OpenWith(pairs);
        var scanned = StoreAssert.Scan(store, [], keysOnly: true);
        StoreAssert.KeysEqual(pairs.Select(p => p.Key).Order(KeyOrder.Instance), scanned);
        Assert.All(scanned, p => Assert.Empty(p.Value));
    }

    [Fact]
    public void A_scan_of_a_prefix_no_key_has_is_empty()
    {
        var store = OpenWith([([1, 1], [1]), ([3], [3])]);
        Assert.Empty(StoreAssert.Scan(store, [2]));
        Assert.Empty(StoreAssert.Scan(store, [0]));
        Assert.Empty(StoreAssert.Scan(store, [4]));
        Assert.Empty(StoreAssert.Range(store, [1, 2], [3]));
    }
}

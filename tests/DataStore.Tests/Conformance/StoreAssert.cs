namespace DataStore.Tests.Conformance;

/// <summary>Assertions over whole stores and scans.</summary>
internal static class StoreAssert
{
    public static List<(byte[] Key, byte[] Value)> Scan(IKeyValueStore store, byte[] prefix, bool keysOnly = false)
    {
        using var cursor = store.ScanPrefix(prefix, keysOnly);
        return Drain(cursor);
    }

    public static List<(byte[] Key, byte[] Value)> Range(IKeyValueStore store, byte[] start, byte[] end, bool keysOnly = false)
    {
        using var cursor = store.ScanRange(start, end, keysOnly);
        return Drain(cursor);
    }

    public static List<(byte[] Key, byte[] Value)> Drain(IKeyValueCursor cursor)
    {
        var pairs = new List<(byte[], byte[])>();
        while (cursor.MoveNext())
        {
            pairs.Add((cursor.Key.ToArray(), cursor.Value.ToArray()));
        }

        return pairs;
    }

    public static void KeysEqual(IEnumerable<byte[]> expected, IEnumerable<(byte[] Key, byte[] Value)> actual) =>
        Assert.Equal(expected.Select(k => Bytes.Hex(k)).ToList(), actual.Select(p => Bytes.Hex(p.Key)).ToList());

    /// <summary>Asserts that <paramref name="key"/> is present and holds exactly <paramref name="expected"/>.</summary>
    public static void Holds(IKeyValueStore store, byte[] key, byte[] expected)
    {
        var actual = store.Get(key);
        Assert.True(actual is not null, $"key {Bytes.Hex(key)} is absent");
        Assert.True(actual.AsSpan().SequenceEqual(expected), $"key {Bytes.Hex(key)} holds {Bytes.Hex(actual)}, expected {Bytes.Hex(expected)}");
    }

    public static void Ascending(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        for (var i = 1; i < pairs.Count; i++)
        {
            Assert.True(pairs[i - 1].Key.AsSpan().SequenceCompareTo(pairs[i].Key) < 0,
                $"keys out of memcmp order at {i}: {Bytes.Hex(pairs[i - 1].Key)} then {Bytes.Hex(pairs[i].Key)}");
        }
    }
}

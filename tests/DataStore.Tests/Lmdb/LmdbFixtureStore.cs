namespace DataStore.Tests.Lmdb;

/// <summary>
/// The store in Lmdb/Fixtures/lmdb09, written through DataStore by LMDB 0.9.24 (Debian 12's liblmdb0) before the
/// backend moved to LMDB 1.0.1, and the pairs it holds: fixture/0000..0299 with 100-byte values, every tenth deleted
/// (so the file has free pages), an empty value, a 700-byte key (ADR 0007's long-key record) and a 20,000-byte value
/// (overflow pages).
/// </summary>
internal static class LmdbFixtureStore
{
    public static string Source { get; } = Path.Combine(AppContext.BaseDirectory, "Lmdb", "Fixtures", "lmdb09");

    /// <summary>Copies the fixture store to <paramref name="destination"/>.</summary>
    public static void CopyTo(string destination)
    {
        Directory.CreateDirectory(destination);
        foreach (var file in Directory.GetFiles(Source))
        {
            File.Copy(file, Path.Combine(destination, Path.GetFileName(file)));
        }
    }

    /// <summary>Every pair the fixture holds, in key order.</summary>
    public static SortedDictionary<byte[], byte[]> Pairs()
    {
        var pairs = new SortedDictionary<byte[], byte[]>(Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)));
        for (var i = 0; i < 300; i++)
        {
            if (i % 10 == 0)
            {
                continue;
            }

            var value = new byte[100];
            for (var j = 0; j < value.Length; j++)
            {
                value[j] = (byte)((i * 7) + j);
            }

            pairs[System.Text.Encoding.ASCII.GetBytes($"fixture/{i:D4}")] = value;
        }

        pairs["empty"u8.ToArray()] = [];
        var longKey = new byte[700];
        for (var j = 0; j < longKey.Length; j++)
        {
            longKey[j] = (byte)('k' + (j % 7));
        }

        pairs[longKey] = "long key value"u8.ToArray();
        var big = new byte[20000];
        for (var j = 0; j < big.Length; j++)
        {
            big[j] = (byte)((j * 31) + 5);
        }

        pairs["big"u8.ToArray()] = big;
        return pairs;
    }

    /// <summary>Asserts <paramref name="store"/> holds exactly the fixture's pairs.</summary>
    public static void AssertHoldsPairs(IKeyValueStore store)
    {
        var expected = Pairs();
        var actual = Conformance.StoreAssert.Scan(store, []);
        Assert.Equal(expected.Select(pair => (pair.Key, pair.Value)), actual);
        foreach (var (key, value) in expected)
        {
            Assert.Equal(value, store.Get(key));
        }
    }
}

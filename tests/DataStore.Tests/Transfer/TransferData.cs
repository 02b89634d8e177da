namespace DataStore.Tests.Transfer;

/// <summary>The pairs the transfer tests move between stores, and helpers to fill and read stores.</summary>
internal static class TransferData
{
    private static readonly StoreBackend[] Persistent =
        [StoreBackend.Sqlite, StoreBackend.RocksDb, StoreBackend.Lmdb, StoreBackend.FileSystem, StoreBackend.LiteDb];

    /// <summary>Every persistent backend (available or not: tests skip the unavailable ones with the reason).</summary>
    public static TheoryData<StoreBackend> Backends => [.. Persistent];

    /// <summary>Every ordered pair of two different persistent backends.</summary>
    public static TheoryData<StoreBackend, StoreBackend> OrderedPairs
    {
        get
        {
            var data = new TheoryData<StoreBackend, StoreBackend>();
            foreach (var from in Persistent)
            {
                foreach (var to in Persistent.Where(b => b != from))
                {
                    data.Add(from, to);
                }
            }

            return data;
        }
    }

    /// <summary>Each persistent backend with the next one, so every backend is exported once and imported once.</summary>
    public static TheoryData<StoreBackend, StoreBackend> NextPairs
    {
        get
        {
            var data = new TheoryData<StoreBackend, StoreBackend>();
            for (var i = 0; i < Persistent.Length; i++)
            {
                data.Add(Persistent[i], Persistent[(i + 1) % Persistent.Length]);
            }

            return data;
        }
    }

    /// <summary>Skips the test, printing why, when this build cannot open <paramref name="backend"/>.</summary>
    public static void RequireAvailable(params StoreBackend[] backends)
    {
        foreach (var backend in backends)
        {
            if (!KeyValueStore.IsAvailable(backend))
            {
                Assert.Skip($"The {backend} backend is not available in this build, so this transfer test is skipped.");
            }
        }
    }

    /// <summary>Edge data: empty values, 0x00 and 0xFF bytes, keys of 600 and 2,000 bytes, optionally a 1 MiB value, and ordinary pairs.</summary>
    public static List<(byte[] Key, byte[] Value)> EdgePairs(bool largeValue = true, int ordinary = 100)
    {
        var random = new Random(2026);
        var pairs = new List<(byte[], byte[])>
        {
            ([0x00], []),
            ([0x00, 0x00], [0x00]),
            ([0xFF], [0xFF, 0xFF, 0x00]),
            ([0xFF, 0xFF, 0xFF], []),
            ([.. Enumerable.Repeat((byte)'L', 600)], [1, 2, 3]),
            ([.. Enumerable.Repeat((byte)'L', 599), 0xFF], []),
            ([.. Enumerable.Repeat((byte)'M', 2000)], [.. Enumerable.Repeat((byte)0xFF, 700)]),
        };
        if (largeValue)
        {
            var big = new byte[1 << 20];
            random.NextBytes(big);
            pairs.Add(("big"u8.ToArray(), big));
        }

        for (var i = 0; i < ordinary; i++)
        {
            var value = new byte[random.Next(0, 200)];
            random.NextBytes(value);
            pairs.Add((System.Text.Encoding.ASCII.GetBytes($"mod/{i:D5}"), value));
        }

        return pairs;
    }

    public static DataStoreOptions Options(string path, StoreBackend backend) => new() { Path = path, Backend = backend, Timeout = TimeSpan.FromSeconds(10) };

    /// <summary>Creates a store holding <paramref name="pairs"/>, and leaves it open.</summary>
    public static IKeyValueStore Fill(string path, StoreBackend backend, IEnumerable<(byte[] Key, byte[] Value)> pairs)
    {
        var store = KeyValueStore.Open(Options(path, backend));
        var batch = new WriteBatch();
        foreach (var (key, value) in pairs)
        {
            batch.Put(key, value);
        }

        store.Write(batch);
        return store;
    }

    /// <summary>Every pair of <paramref name="store"/>, in scan order.</summary>
    public static List<(byte[] Key, byte[] Value)> ReadAll(IKeyValueStore store)
    {
        var pairs = new List<(byte[], byte[])>();
        using var cursor = store.ScanPrefix([]);
        while (cursor.MoveNext())
        {
            pairs.Add((cursor.Key.ToArray(), cursor.Value.ToArray()));
        }

        return pairs;
    }

    /// <summary>Asserts two pair lists are equal pair by pair.</summary>
    public static void AssertSamePairs(IReadOnlyList<(byte[] Key, byte[] Value)> expected, IReadOnlyList<(byte[] Key, byte[] Value)> actual)
    {
        Assert.Equal(expected.Count, actual.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.Equal(expected[i].Key, actual[i].Key);
            Assert.Equal(expected[i].Value, actual[i].Value);
        }
    }

    /// <summary>The pairs sorted as a store returns them (memcmp order).</summary>
    public static List<(byte[] Key, byte[] Value)> Sorted(IEnumerable<(byte[] Key, byte[] Value)> pairs) =>
        [.. pairs.OrderBy(p => p.Key, Comparer<byte[]>.Create((a, b) => a.AsSpan().SequenceCompareTo(b)))];

    /// <summary>The entries of <paramref name="directory"/> (names only), to prove nothing was left behind.</summary>
    public static string[] Entries(string directory) =>
        Directory.Exists(directory) ? [.. Directory.EnumerateFileSystemEntries(directory).Select(System.IO.Path.GetFileName).Order()!] : [];
}

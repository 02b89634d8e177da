namespace DataStore.Benchmarks;

/// <summary>The data set of the Packed suites: the core shape (9-byte keys, ids 0, 2, 4, ...; 128-byte values), in key order.</summary>
/// <remarks>
/// <c>DATASTORE_BENCH_PACKED_PAIRS</c> sets the pair count (default 1,000,000); <c>--backends Packed,Lmdb</c> narrows
/// the backends compared (default Packed, Lmdb and Sqlite).
/// </remarks>
public static class PackedData
{
    public static int Count { get; } = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_BENCH_PACKED_PAIRS"), out var count) ? count : 1_000_000;

    /// <summary>The backends the Packed suites compare; names of other engines in <c>--backends</c> (the YCSB suite's ZoneTree, Faster) are not theirs.</summary>
    public static IEnumerable<StoreBackend> Backends =>
        BenchmarkCommandLine.Backends?.Select(name => Enum.TryParse<StoreBackend>(name, ignoreCase: true, out var backend) ? backend : (StoreBackend?)null)
            .OfType<StoreBackend>() ?? [StoreBackend.Packed, StoreBackend.Lmdb, StoreBackend.Sqlite];

    /// <summary>The pairs in ascending key order; each pair is new arrays (values cut from <paramref name="pool"/>).</summary>
    public static IEnumerable<KeyValuePair<byte[], byte[]>> Sorted(byte[] pool)
    {
        var random = new Random(1);
        for (var i = 0; i < Count; i++)
        {
            yield return KeyValuePair.Create(BenchmarkData.Key(2L * i), pool.AsSpan(random.Next(pool.Length - BenchmarkData.ValueSize), BenchmarkData.ValueSize).ToArray());
        }
    }

    /// <summary>Creates the store of <paramref name="backend"/> in <paramref name="directory"/>: Packed by a build, others by batches of 1,000 in key order.</summary>
    public static void Create(StoreBackend backend, string directory, byte[] pool)
    {
        if (backend == StoreBackend.Packed)
        {
            PackedStore.Build(Sorted(pool), directory);
            return;
        }

        using var store = KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend });
        foreach (var chunk in Sorted(pool).Chunk(1_000))
        {
            var batch = new WriteBatch();
            foreach (var pair in chunk)
            {
                batch.Put(pair.Key, pair.Value);
            }

            store.Write(batch);
        }
    }

    /// <summary>The bytes of every file in <paramref name="directory"/>.</summary>
    public static long Size(string directory) => new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories).Sum(f => f.Length);
}

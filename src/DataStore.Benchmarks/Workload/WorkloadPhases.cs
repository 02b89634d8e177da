namespace DataStore.Benchmarks.Workload;

/// <summary>
/// The phases of the 1,000,000-record workload (the suite of a published key-value store built on SQLite's B-tree),
/// in order, on one store of N records: 9-byte keys and 128-byte values as in <see cref="BenchmarkData"/>, single-key
/// Relaxed writes except the bulk insert.
/// </summary>
/// <remarks>
/// Sequential writes put the even ids 0, 2, 4, ... below N in key order into the empty store; random writes put the odd
/// ids in random order between them (N records in all). Both reads Get every record, in key order then in random order;
/// the scan reads all N pairs. Updates overwrite N/2 random records, deletes remove N/2 others, the mix alternates a Get
/// and a Put of random ids below N (N/2 operations, the Gets half misses after the deletes), and the bulk insert writes
/// N new ids in random order, 1,000 per batch.
/// </remarks>
public sealed class WorkloadPhases
{
    private readonly int _records;
    private readonly byte[] _pool;
    private readonly int[] _permutation;
    private readonly byte[] _key = new byte[BenchmarkData.KeySize];
    private readonly byte[] _buffer = new byte[256];
    private readonly Random _random = new(21);
    private IKeyValueStore _store = null!;
    private int _scanned;

    /// <summary>Prepares the phases for <paramref name="records"/> records (the random order of ids is made here, before any store opens).</summary>
    public WorkloadPhases(int records, byte[] pool)
    {
        _records = records;
        _pool = pool;
        _permutation = Enumerable.Range(0, records).ToArray();
        _random.Shuffle(_permutation);
    }

    /// <summary>Each phase's name and its run on <paramref name="store"/> (an empty store), which returns the operations it did.</summary>
    public IReadOnlyList<(string Name, Func<long> Run)> On(IKeyValueStore store)
    {
        _store = store;
        return
        [
            ("sequential writes", () => Each(_records / 2, i => Put(2L * i))),
            ("random writes", () => Each(_records, i => _permutation[i] % 2 == 1 ? Put(_permutation[i]) : 0)),
            ("sequential reads", () => Each(_records, Get)),
            ("random reads", () => Each(_records, i => Get(_permutation[i]))),
            ("full scan", Scan),
            ("updates", () => Each(_records / 2, i => Put(_permutation[i]))),
            ("deletes", () => Each(_records / 2, i => Delete(_permutation[_records - 1 - i]))),
            ("50/50 read/write", () => Each(_records / 2, i => i % 2 == 0 ? Get(_random.Next(_records)) : Put(_random.Next(_records)))),
            ("bulk insert, 1,000 per batch", BulkInsert),
        ];
    }

    private static long Each(int count, Func<int, int> operation)
    {
        long done = 0;
        for (var i = 0; i < count; i++)
        {
            done += operation(i);
        }

        return done;
    }

    private int Put(long id)
    {
        BenchmarkData.WriteKey(_key, id);
        _store.Put(_key, Value());
        return 1;
    }

    private int Get(int id)
    {
        BenchmarkData.WriteKey(_key, id);
        _store.Get(_key, _buffer);
        return 1;
    }

    private int Delete(int id)
    {
        BenchmarkData.WriteKey(_key, id);
        _store.Delete(_key);
        return 1;
    }

    private long Scan()
    {
        long pairs = 0;
        using var cursor = _store.ScanPrefix([]);
        while (cursor.MoveNext())
        {
            _scanned += cursor.Key[^1] ^ cursor.Value[0]; // every pair's key and value read
            pairs++;
        }

        return pairs;
    }

    private long BulkInsert()
    {
        var batch = new WriteBatch();
        for (var i = 0; i < _records; i++)
        {
            BenchmarkData.WriteKey(_key, _records + (long)_permutation[i]);
            batch.Put(_key, Value()); // the batch copies the key
            if (batch.Count == 1_000)
            {
                _store.Write(batch);
                batch.Clear();
            }
        }

        _store.Write(batch);
        return _records;
    }

    private ReadOnlySpan<byte> Value() => _pool.AsSpan(_random.Next(_pool.Length - BenchmarkData.ValueSize), BenchmarkData.ValueSize);
}

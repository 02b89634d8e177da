using System.Buffers.Binary;

namespace DataStore.Benchmarks;

/// <summary>
/// The data shape of the native anchor (docs/benchmarks/native-ruler.md): 9-byte keys (tag 0x01 + 8-byte big-endian id),
/// existing ids even, misses odd; 128-byte incompressible values cut from a random pool.
/// </summary>
public static class BenchmarkData
{
    public const int ValueSize = 128;

    public const int KeySize = 9;

    public static byte[] Key(long id)
    {
        var key = new byte[KeySize];
        WriteKey(key, id);
        return key;
    }

    /// <summary>Writes the key of <paramref name="id"/> into the first <see cref="KeySize"/> bytes of <paramref name="destination"/>, for loops that reuse one buffer.</summary>
    public static void WriteKey(Span<byte> destination, long id)
    {
        destination[0] = 0x01;
        BinaryPrimitives.WriteInt64BigEndian(destination[1..KeySize], id);
    }

    /// <summary>A pool of random bytes (4 MiB unless <paramref name="size"/> says more); values are slices of it at random offsets.</summary>
    public static byte[] ValuePool(int seed, int size = 4 << 20)
    {
        var pool = new byte[size];
        new Random(seed).NextBytes(pool);
        return pool;
    }

    /// <summary>Opens a fresh store of <paramref name="backend"/> in <paramref name="directory"/> and loads <paramref name="count"/> keys (ids 0, 2, 4, ...) in random order, 1,000 per batch.</summary>
    /// <remarks>
    /// With <c>DATASTORE_BENCH_FORMAT=1</c> the store is created in format version 1, without per-pair checksums, to measure
    /// what the checksums cost (ADR 0014). With <c>DATASTORE_BENCH_FORMAT=2</c> a Sqlite store is created as format version 2
    /// wrote it, pair checksums but no page checksums, to measure what the page checksums cost (ADR 0023).
    /// </remarks>
    public static IKeyValueStore OpenPreloaded(StoreBackend backend, string directory, int count, byte[] pool)
    {
        if (Environment.GetEnvironmentVariable("DATASTORE_BENCH_FORMAT") == "1")
        {
            KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend }).Dispose(); // the data files; the manifest is then put back as version 1 wrote it
            File.WriteAllText(Path.Combine(directory, "datastore.json"), $$"""{ "backend": "{{backend}}", "formatVersion": 1, "durability": "Relaxed" }""");
        }

        if (Environment.GetEnvironmentVariable("DATASTORE_BENCH_FORMAT") == "2" && backend == StoreBackend.Sqlite)
        {
            CreateSqliteWithoutPageChecksums(directory);
        }

        var store = KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend });
        var random = new Random(1);
        var order = Enumerable.Range(0, count).ToArray();
        random.Shuffle(order);
        var batch = new WriteBatch();
        foreach (var i in order)
        {
            batch.Put(Key(2L * i), pool.AsSpan(random.Next(pool.Length - ValueSize), ValueSize));
            if (batch.Count == 1_000)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        store.Write(batch);
        return store;
    }

    public static string NewDirectory() => Path.Combine(Path.GetTempPath(), "datastore-bench", Guid.NewGuid().ToString("N"));

    // The database file in WAL mode with no reserved bytes per page, and a version-2 manifest: a store as DataStore wrote it before ADR 0023.
    private static void CreateSqliteWithoutPageChecksums(string directory)
    {
        Directory.CreateDirectory(directory);
        SQLitePCL.Batteries_V2.Init();
        if (SQLitePCL.raw.sqlite3_open(Path.Combine(directory, "store.sqlite"), out var db) != SQLitePCL.raw.SQLITE_OK)
        {
            throw new InvalidOperationException("creating the benchmark's format-2 database failed");
        }

        using (db)
        {
            SQLitePCL.raw.sqlite3_exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE kv(k BLOB PRIMARY KEY, v BLOB NOT NULL, c INTEGER NOT NULL) WITHOUT ROWID");
        }

        File.WriteAllText(Path.Combine(directory, "datastore.json"), """{ "backend": "Sqlite", "formatVersion": 2, "durability": "Relaxed", "checksums": true }""");
    }
}

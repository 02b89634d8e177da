using System.Buffers.Binary;
using System.Diagnostics;

namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 7 on a store larger than the engine's caches (issue 20 part 6: LiteDB failed at 1,000,000 keys with 4-8
/// threads, even read-only, once its page cache had to evict). Eight threads of point reads, overwrites and short scans
/// for a few seconds; every read returns the value written and nothing fails. CI writes 20,000 keys and opens the store
/// with a cache smaller than that where the backend lets a test choose (<see cref="OpenWithCacheSmallerThanTheStore"/>).
/// </summary>
/// <remarks>
/// The soak, at the size the defect was found with: <c>DATASTORE_SOAK_KEYS=1000000 DATASTORE_SOAK_SECONDS=60 dotnet test
/// tests/DataStore.Tests -c Release --filter "FullyQualifiedName~LargeStoreThreadsContract"</c>.
/// </remarks>
public abstract class LargeStoreThreadsContract : StoreContract
{
    private const int Threads = 8;
    private const int ValueSize = 100;

    private static TimeSpan RunFor => TimeSpan.FromSeconds(Setting("DATASTORE_SOAK_SECONDS") ?? 6);

    private static int KeyCount => Setting("DATASTORE_SOAK_KEYS") ?? 20_000;

    /// <summary>Opens the store under test with the engine's cache smaller than the store the test writes, where a test can choose it; by default as configured.</summary>
    protected virtual IKeyValueStore OpenWithCacheSmallerThanTheStore() => Open();

    [Fact]
    public void Eight_threads_on_a_large_store_read_what_was_written_and_never_fail()
    {
        var keys = KeyCount;
        var store = OpenWithCacheSmallerThanTheStore();
        var batch = new WriteBatch();
        for (var i = 0; i < keys; i++)
        {
            batch.Put(Key(i), Value(i));
            if (i % 5_000 == 4_999 || i == keys - 1)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        var seed = Environment.TickCount;
        var operations = new long[Threads];
        var clock = Stopwatch.StartNew();
        Parallel.For(0, Threads, new ParallelOptions { MaxDegreeOfParallelism = Threads }, t =>
        {
            var random = new Random(seed + t);
            var buffer = new byte[ValueSize];
            while (clock.Elapsed < RunFor)
            {
                var i = random.Next(keys);
                var dice = random.Next(100);
                if (dice < 70)
                {
                    Assert.Equal(ValueSize, store.Get(Key(i), buffer));
                    Assert.True(buffer.AsSpan().SequenceEqual(Value(i)), $"seed {seed}: key {i} read back changed");
                }
                else if (dice < 92)
                {
                    Assert.True(store.HaveKey(Key(i)), $"seed {seed}: key {i} missing");
                }
                else if (dice < 96)
                {
                    store.Put(Key(i), Value(i));
                }
                else
                {
                    Assert.Equal(Math.Min(20, keys - i), StoreAssert.Range(store, Key(i), Key(i + 20)).Count);
                }

                operations[t]++;
            }
        });

        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: {operations.Sum():N0} operations on {keys:N0} keys in {clock.Elapsed.TotalSeconds:0.0} s, seed {seed}");
        Assert.Equal(keys, StoreAssert.Scan(store, [], keysOnly: true).Count);
    }

    private static int? Setting(string name) => int.TryParse(Environment.GetEnvironmentVariable(name), out var value) ? value : null;

    private static byte[] Key(int i)
    {
        var key = new byte[5];
        key[0] = (byte)'k';
        BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(1), i);
        return key;
    }

    private static byte[] Value(int i)
    {
        var value = new byte[ValueSize];
        new Random(i).NextBytes(value);
        return value;
    }
}

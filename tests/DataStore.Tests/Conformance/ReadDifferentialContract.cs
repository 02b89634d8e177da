namespace DataStore.Tests.Conformance;

/// <summary>
/// Seeded random reads (Get, HaveKey, prefix, range and keys-only scans) against a seeded store and a sorted model,
/// compared after every step. A failure names its seed; set DATASTORE_TEST_SEED to replay it.
/// </summary>
public abstract class ReadDifferentialContract : ReadContract
{
    private const int Steps = 2_000;

    [Fact]
    public void Random_reads_agree_with_a_sorted_model()
    {
        var seed = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_TEST_SEED"), out var fixedSeed) ? fixedSeed : Random.Shared.Next();
        var random = new Random(seed);
        var pairs = Clustered(1_000 + random.Next(3_000), seed);
        var model = new SortedDictionary<byte[], byte[]>(KeyOrder.Instance);
        pairs.ForEach(p => model[p.Key] = p.Value);
        var keys = model.Keys.ToList();
        var store = OpenWith(pairs);
        for (var step = 0; step < Steps; step++)
        {
            var probe = random.Next(3) == 0 ? Clustered(1, random.Next())[0].Key : keys[random.Next(keys.Count)];
            var other = keys[random.Next(keys.Count)];
            var what = random.Next(4);
            var context = $"{Backend}, seed {seed} (replay with DATASTORE_TEST_SEED={seed}), step {step}, probe {Bytes.Hex(probe)}";
            switch (what)
            {
                case 0:
                    var expected = model.GetValueOrDefault(probe);
                    var actual = store.Get(probe);
                    Assert.True(expected is null ? actual is null : actual is not null && actual.AsSpan().SequenceEqual(expected), $"Get differs: {context}");
                    Assert.True(store.HaveKey(probe) == expected is not null, $"HaveKey differs: {context}");
                    break;
                case 1:
                    var prefix = probe[..(1 + random.Next(probe.Length))];
                    Assert.True(Same(model.Where(p => p.Key.AsSpan().StartsWith(prefix)), StoreAssert.Scan(store, prefix), false), $"prefix scan differs: {context}");
                    break;
                default:
                    var (start, end) = KeyOrder.Instance.Compare(probe, other) <= 0 ? (probe, other) : (other, probe);
                    var keysOnly = what == 3;
                    var inRange = model.Where(p => KeyOrder.Instance.Compare(p.Key, start) >= 0 && KeyOrder.Instance.Compare(p.Key, end) < 0);
                    Assert.True(Same(inRange, StoreAssert.Range(store, start, end, keysOnly), keysOnly), $"range scan differs: {context}");
                    break;
            }
        }

        TestContext.Current.TestOutputHelper?.WriteLine($"seed {seed}: {Steps} reads over {keys.Count} pairs agreed");
    }

    private static bool Same(IEnumerable<KeyValuePair<byte[], byte[]>> expected, List<(byte[] Key, byte[] Value)> actual, bool keysOnly) =>
        expected.Select(p => (p.Key, keysOnly ? [] : p.Value)).SequenceEqual(actual, PairComparer.Instance);

    private sealed class PairComparer : IEqualityComparer<(byte[] Key, byte[] Value)>
    {
        public static readonly PairComparer Instance = new();

        public bool Equals((byte[] Key, byte[] Value) x, (byte[] Key, byte[] Value) y) => x.Key.AsSpan().SequenceEqual(y.Key) && x.Value.AsSpan().SequenceEqual(y.Value);

        public int GetHashCode((byte[] Key, byte[] Value) obj) => obj.Key.Length;
    }
}

using DataStore.Packed;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Packed;

public sealed class PackedBuildTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void Unsorted_input_past_the_memory_budget_is_sorted_through_spilled_runs()
    {
        var pairs = PackedTestStores.Shuffled(30_000, 7);
        using (var enumerator = pairs.GetEnumerator())
        {
            // 256 KiB of pairs in memory at a time: about 14 runs merged.
            Assert.Equal(30_000, PackedStore.Build(PairSources.Of(enumerator), StorePath, null, null, 256 << 10, null, Ct));
        }

        using var store = KeyValueStore.Open(StorePath);
        Assert.Equal(StoreBackend.Packed, store.Backend);
        var scanned = StoreAssert.Scan(store, []);
        StoreAssert.KeysEqual(pairs.Select(p => p.Key).Order(KeyOrder.Instance), scanned);
        var expected = pairs.ToDictionary(p => Bytes.Hex(p.Key), p => p.Value);
        Assert.All(scanned, p => Assert.Equal(expected[Bytes.Hex(p.Key)], p.Value));
        Assert.Empty(Directory.GetDirectories(StorePath));
        Assert.Equal(["datastore.json", "store.packed"], Directory.GetFiles(StorePath).Select(Path.GetFileName).Order());
    }

    [Fact]
    public void Changing_the_change_feed_of_a_packed_store_is_refused_and_leaves_its_files_as_built()
    {
        PackedTestStores.Build(StorePath, 100);

        var on = Assert.Throws<DataStoreException>(() => StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: true));
        Assert.Equal(StoreFailure.Unavailable, on.Cause);
        Assert.Contains("Packed backend has no change feed", on.Message, StringComparison.Ordinal);
        Assert.Throws<DataStoreException>(() => StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: null, retention: 10));
        Assert.False(StoreConfiguration.ConfigureChangeFeed(StorePath, enabled: false).Enabled);
        Assert.Equal(["datastore.json", "store.packed"], Directory.GetFiles(StorePath).Select(Path.GetFileName).Order());
    }

    [Fact]
    public void Input_sorted_at_first_then_not_keeps_every_pair()
    {
        var sorted = PackedTestStores.Shuffled(5_000, 3).OrderBy(p => p.Key, KeyOrder.Instance).ToList();
        var input = sorted.Skip(100).Concat(sorted.Take(100)).ToList();
        Assert.Equal(5_000, PackedStore.Build(input, StorePath, cancellationToken: Ct));
        using var store = KeyValueStore.Open(StorePath);
        StoreAssert.KeysEqual(sorted.Select(p => p.Key), StoreAssert.Scan(store, [], keysOnly: true));
        StoreAssert.Holds(store, sorted[0].Key, sorted[0].Value);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_duplicate_key_is_an_error_and_nothing_is_written(bool sorted)
    {
        var pairs = PackedTestStores.Shuffled(2_000, 5);
        pairs.Insert(sorted ? 0 : 1_000, KeyValuePair.Create(pairs[500].Key, new byte[] { 1 }));
        var input = sorted ? pairs.OrderBy(p => p.Key, KeyOrder.Instance).ToList() : pairs;
        var e = Assert.Throws<ArgumentException>(() => PackedStore.Build(input, StorePath, cancellationToken: Ct));
        Assert.Contains("appears twice", e.Message);
        Assert.False(File.Exists(Path.Combine(StorePath, "store.packed")));
        Assert.False(File.Exists(Path.Combine(StorePath, "datastore.json")));
        Assert.Empty(Directory.GetFileSystemEntries(StorePath));
    }

    [Fact]
    public void Point_reads_find_every_key_and_no_other_among_keys_of_mixed_lengths_that_share_prefixes()
    {
        const int Seed = 18;
        var random = new Random(Seed);
        var bases = Enumerable.Range(0, 8).Select(i => Bytes.Random(random.Next(0, 40), 100 + i)).ToList();
        bases.Add(Bytes.Random(5_000, 99)); // long keys sharing a long prefix with their block's first key
        var pairs = new Dictionary<string, (byte[] Key, byte[] Value)>();
        while (pairs.Count < 3_000)
        {
            var key = bases[random.Next(bases.Count)].Concat(Bytes.Random(random.Next(pairs.Count % 7 == 0 ? 0 : 1, 12), random.Next())).ToArray();
            if (key.Length > 0)
            {
                pairs.TryAdd(Convert.ToHexString(key), (key, Bytes.Random(random.Next(0, 300), random.Next())));
            }
        }

        // Values past the writer's buffer go straight to the file.
        var large = pairs.Keys.Take(3).ToList();
        pairs[large[0]] = (pairs[large[0]].Key, Bytes.Random(100_000, 1));
        pairs[large[1]] = (pairs[large[1]].Key, Bytes.Random(1 << 20, 2));
        Assert.Equal(3_000, PackedStore.Build(pairs.Values.Select(p => KeyValuePair.Create(p.Key, p.Value)), StorePath, cancellationToken: Ct));

        using var store = KeyValueStore.Open(StorePath);
        foreach (var (key, value) in pairs.Values)
        {
            Assert.True(value.AsSpan().SequenceEqual(store.Get(key)), $"seed {Seed}: the value of {Bytes.Hex(key)}");
            List<byte[]> near = [[.. key, 0], key[..^1], [.. key[..^1], (byte)(key[^1] + 1)]];
            foreach (var other in near.Where(k => k.Length > 0))
            {
                Assert.True(pairs.ContainsKey(Convert.ToHexString(other)) == store.HaveKey(other), $"seed {Seed}: HaveKey({Bytes.Hex(other)})");
            }
        }

        StoreAssert.KeysEqual(pairs.Values.Select(p => p.Key).Order(KeyOrder.Instance), StoreAssert.Scan(store, [], keysOnly: true));
    }

    [Fact]
    public void An_empty_key_is_an_argument_error()
    {
        Assert.Throws<ArgumentException>(() => PackedStore.Build([KeyValuePair.Create(Array.Empty<byte>(), new byte[] { 1 })], StorePath, cancellationToken: Ct));
    }

    [Fact]
    public void A_rebuild_replaces_the_file_and_an_open_store_keeps_reading_the_old_one()
    {
        PackedStore.Build([KeyValuePair.Create(new byte[] { 1 }, new byte[] { 1 })], StorePath, cancellationToken: Ct);
        using var old = KeyValueStore.Open(StorePath);
        PackedStore.Build([KeyValuePair.Create(new byte[] { 2 }, new byte[] { 2 })], StorePath, cancellationToken: Ct);
        StoreAssert.Holds(old, [1], [1]);
        Assert.False(old.HaveKey([2]));
        using var reopened = KeyValueStore.Open(StorePath);
        StoreAssert.KeysEqual([[2]], StoreAssert.Scan(reopened, []));
    }

    [Fact]
    public async Task A_build_from_another_store_and_from_its_dump_hold_the_same_pairs()
    {
        var pairs = PackedTestStores.Shuffled(3_000, 9);
        var dump = _directory.Sub("store.dump");
        using (var sqlite = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("sqlite"), Backend = StoreBackend.Sqlite }))
        {
            var batch = new WriteBatch();
            pairs.ForEach(p => batch.Put(p.Key, p.Value));
            sqlite.Write(batch);
            Assert.Equal(3_000, PackedStore.Build(sqlite, StorePath, cancellationToken: Ct));
            await using var output = File.Create(dump);
            await sqlite.ExportAsync(output, cancellationToken: Ct);
        }

        using (var file = File.OpenRead(dump))
        {
            Assert.Equal(3_000, PackedStore.BuildFromDump(file, _directory.Sub("from-dump"), cancellationToken: Ct));
        }

        using var fromStore = KeyValueStore.Open(StorePath);
        using var fromDump = KeyValueStore.Open(_directory.Sub("from-dump"));
        var expected = StoreAssert.Scan(fromStore, []);
        Assert.Equal(3_000, expected.Count);
        Assert.Equal(expected.Select(p => Bytes.Hex(p.Key) + Bytes.Hex(p.Value)), StoreAssert.Scan(fromDump, []).Select(p => Bytes.Hex(p.Key) + Bytes.Hex(p.Value)));
    }

    [Fact]
    public void A_build_into_another_backends_store_is_refused_and_leaves_it_alone()
    {
        using (var sqlite = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Sqlite }))
        {
            sqlite.Put([1], [1]);
        }

        var e = Assert.Throws<StoreFormatException>(() => PackedStore.Build([KeyValuePair.Create(new byte[] { 2 }, new byte[] { 2 })], StorePath, cancellationToken: Ct));
        Assert.Equal(StoreFailure.WrongBackend, e.Cause);
        Assert.False(File.Exists(Path.Combine(StorePath, "store.packed")));
        using var again = KeyValueStore.Open(StorePath);
        StoreAssert.Holds(again, [1], [1]);
    }

    [Fact]
    public void Cancelling_a_build_writes_nothing()
    {
        using var cancel = new CancellationTokenSource();
        var progress = new SynchronousProgress<StoreProgress>(_ => cancel.Cancel());
        Assert.ThrowsAny<OperationCanceledException>(() => PackedStore.Build(PackedTestStores.Shuffled(20_000, 2), StorePath, progress, cancel.Token));
        Assert.Empty(Directory.GetFileSystemEntries(StorePath));
    }

    public void Dispose() => _directory.Dispose();
}

using System.Buffers.Binary;
using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>Bounded directories, order-preserving names, long keys and keys that try to leave the store.</summary>
public sealed class FileSystemLayoutTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void No_leaf_directory_passes_the_limit_when_5000_keys_share_their_first_8_bytes()
    {
        // The CI variant: a limit of 32 entries makes 5,000 keys split as 1,000,000 keys do at 4,096. A split
        // directory holds at most 258 entries (256 children, the key equal to its prefix, the marker) whatever the limit.
        const int limit = 32, count = 5_000;
        using var store = FileSystemTestStore.Open(StorePath, limit);
        LoadSharedPrefixKeys(store, count, seed: 8);

        var (leaf, split) = FileSystemTestStore.LargestDirectories(StorePath);
        Assert.True(leaf <= limit, $"a leaf directory holds {leaf} entries");
        Assert.True(split <= 258, $"a split directory holds {split} entries");
        var keys = StoreAssert.Scan(store, SharedPrefix, keysOnly: true);
        Assert.Equal(count, keys.Count);
        StoreAssert.Ascending(keys);
        Assert.Equal(256, StoreAssert.Scan(store, [.. SharedPrefix, 0, 0, 0x11]).Count);
        Assert.True(store.HaveKey(SharedKey(1_234)));
        Assert.Equal(Number(1_234), store.Get(SharedKey(1_234)));
    }

    /// <summary>
    /// The full-size proof, a documented command rather than a CI step (about 10 minutes here):
    /// <c>DATASTORE_FS_MILLION=1 dotnet test --project tests/DataStore.Tests -c Release --filter-method '*One_million*'</c>.
    /// </summary>
    [Fact]
    public void One_million_keys_sharing_their_first_8_bytes_keep_every_directory_within_4096_entries()
    {
        Assert.SkipUnless(Environment.GetEnvironmentVariable("DATASTORE_FS_MILLION") == "1", "set DATASTORE_FS_MILLION=1 to run the 1,000,000-key proof");
        using var store = FileSystemTestStore.Open(StorePath);
        LoadSharedPrefixKeys(store, 1_000_000, seed: 1);
        var (leaf, split) = FileSystemTestStore.LargestDirectories(StorePath);
        TestContext.Current.SendDiagnosticMessage($"largest leaf directory: {leaf} entries; largest split directory: {split} entries");
        Assert.True(Math.Max(leaf, split) <= FileSystemStore.DefaultMaxEntries, $"a directory holds {Math.Max(leaf, split)} entries");
        Assert.Equal(1_000_000, StoreAssert.Scan(store, SharedPrefix, keysOnly: true).Count);
    }

    [Fact]
    public void A_prefix_scan_lists_only_the_directories_that_can_hold_the_prefix()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 32);
        LoadSharedPrefixKeys(store, 5_000, seed: 3);
        var all = Directory.EnumerateDirectories(Path.Combine(StorePath, "data"), "*", SearchOption.AllDirectories).Count();

        TreeWalker.DirectoriesListed = 0;
        var found = StoreAssert.Scan(store, [.. SharedPrefix, 0, 0, 0x11, 0x07]);
        Assert.Single(found);
        Assert.True(TreeWalker.DirectoriesListed <= 2 * (SharedPrefix.Length + 4), $"listed {TreeWalker.DirectoriesListed} of {all} directories");
    }

    [Fact]
    public void An_ordinal_listing_of_a_directory_is_key_order()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        var random = new Random(5);
        var keys = new List<byte[]>();
        for (var i = 0; i < 300; i++)
        {
            var key = new byte[1 + random.Next(12)];
            random.NextBytes(key);
            key[0] = (byte)"a0/_~A\0\xff.z"[random.Next(10)];
            keys.Add(key);
            store.Put(key, key);
        }

        var names = FileSystemTestStore.RootKeyFiles(StorePath).Select(Path.GetFileName).Order(StringComparer.Ordinal).ToList();
        var listed = names.Select(n => File.ReadAllBytes(Path.Combine(StorePath, "data", n!))[KeyFile.HeaderSize..]).ToList();
        var expected = keys.Distinct(new ByteComparer()).Order(KeyOrder.Instance).ToList();
        Assert.Equal(expected.Count, listed.Count);
        for (var i = 0; i < expected.Count; i++)
        {
            Assert.Equal(expected[i], listed[i][..expected[i].Length]);
        }
    }

    [Fact]
    public void Long_keys_whose_hashed_names_collide_stay_distinct_and_ordered()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        KeyNames.CollideHashesForTests = true;
        try
        {
            var keys = Enumerable.Range(0, 5).Select(i => (byte[])[.. Enumerable.Repeat((byte)'m', 300), (byte)(4 - i)]).ToList();
            foreach (var key in keys)
            {
                store.Put(key, [key[^1]]);
            }

            var files = FileSystemTestStore.RootKeyFiles(StorePath).Select(Path.GetFileName).ToList();
            Assert.Equal(5, files.Count);
            Assert.Contains(files, f => f!.EndsWith("-4", StringComparison.Ordinal));
            foreach (var key in keys)
            {
                Assert.Equal(new[] { key[^1] }, store.Get(key));
            }

            StoreAssert.KeysEqual(keys.Order(KeyOrder.Instance).ToList(), StoreAssert.Scan(store, "mmm"u8.ToArray()));

            store.Delete(keys[1]);
            Assert.False(store.HaveKey(keys[1]));
            Assert.Equal(4, FileSystemTestStore.RootKeyFiles(StorePath).Count());
            foreach (var key in keys.Where((_, i) => i != 1))
            {
                Assert.True(store.HaveKey(key));
                Assert.Equal(new[] { key[^1] }, store.Get(key));
            }
        }
        finally
        {
            KeyNames.CollideHashesForTests = false;
        }
    }

    [Fact]
    public void A_1_MiB_key_is_named_by_a_prefix_and_a_hash_and_stored_whole()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        var key = Bytes.Random(1 << 20, 9);
        store.Put(key, "v"u8);
        var name = Path.GetFileName(Assert.Single(FileSystemTestStore.RootKeyFiles(StorePath)));
        Assert.True(name.Length <= KeyNames.MaxNameLength, $"name of {name.Length} characters");
        Assert.Contains('=', name);
        Assert.Equal("v"u8.ToArray(), store.Get(key));
    }

    [Fact]
    public void Keys_that_look_like_paths_stay_inside_the_store()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        string[] tricky = ["../../etc/passwd", "/", ".", "..", "a/b", "\\", "..\\..\\x", "CON", "nul.txt", "~", "k", "split", "x41"];
        var keys = tricky.Select(Bytes.Utf8).Append([0]).Append([(byte)'.', 0, (byte)'/']).ToList();
        foreach (var key in keys)
        {
            store.Put(key, key);
        }

        foreach (var key in keys)
        {
            Assert.Equal(key, store.Get(key));
        }

        Assert.Equal(keys.Count, StoreAssert.Scan(store, []).Count);
        Assert.Equal(["store"], Directory.EnumerateFileSystemEntries(_directory.Path).Select(Path.GetFileName).Where(n => !n!.StartsWith("probe", StringComparison.Ordinal)));
        Assert.All(Directory.EnumerateFiles(Path.Combine(StorePath, "data")).Where(f => Path.GetFileName(f) != TreeRoot.MarkerName), f => Assert.StartsWith("k", Path.GetFileName(f)));
    }

    public void Dispose() => _directory.Dispose();

    private static readonly byte[] SharedPrefix = [7, 7, 7, 7, 7, 7, 7, 7];

    private static byte[] SharedKey(int i) => [.. SharedPrefix, .. Number(i)];

    private static byte[] Number(int i)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(bytes, i);
        return bytes;
    }

    private static void LoadSharedPrefixKeys(IKeyValueStore store, int count, int seed)
    {
        var order = Enumerable.Range(0, count).ToArray();
        new Random(seed).Shuffle(order);
        var batch = new WriteBatch();
        foreach (var i in order)
        {
            batch.Put(SharedKey(i), Number(i));
            if (batch.Count == 1_000)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        store.Write(batch);
    }

    private sealed class ByteComparer : IEqualityComparer<byte[]>
    {
        public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

        public int GetHashCode(byte[] obj) => obj.Length;
    }
}

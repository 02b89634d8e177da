using DataStore.Lmdb;
using DataStore.Lmdb.Files;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// ADR 0020's LMDB layout: a store created with the change feed keeps its pairs in the named tree <c>pairs</c> and its log
/// in <c>feed</c>, so the main tree holds only those two names and a user's key spelled like one stays an ordinary key; a
/// store without the feed keeps its pairs in the main tree, as before; damage in the log is an error naming the file.
/// </summary>
public sealed class LmdbChangeFeedLayoutTests : IDisposable
{
    // LMDB records a named tree under its name and a terminating zero byte.
    private static readonly byte[][] NameLikeKeys = ["feed"u8.ToArray(), "feed\0"u8.ToArray(), "pairs"u8.ToArray(), "pairs\0"u8.ToArray()];

    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public async Task A_store_with_the_feed_keeps_pairs_and_log_in_two_named_trees_and_keys_spelled_like_their_names_stay_ordinary_keys()
    {
        using (var store = Open(StorePath, feed: true))
        {
            foreach (var key in NameLikeKeys)
            {
                store.Put(key, key);
            }
        }

        Assert.Equal((2ul, $"{LmdbEnvironment.FeedName} {LmdbEnvironment.PairsName}"), MainTree(StorePath));
        using var reopened = Open(StorePath, feed: null);
        var pairs = StoreAssert.Scan(reopened, []);
        StoreAssert.KeysEqual(NameLikeKeys, pairs);
        Assert.All(pairs, p => Assert.Equal(p.Key, p.Value));
        var report = await reopened.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
        Assert.Equal(NameLikeKeys.Length, report.Digest.Pairs);
        Assert.Equal(NameLikeKeys.Length, reopened.ChangeSequence());
    }

    [Fact]
    public void A_store_without_the_feed_keeps_its_pairs_in_the_main_tree_as_before()
    {
        using (var store = Open(StorePath, feed: null))
        {
            foreach (var key in NameLikeKeys)
            {
                store.Put(key, key);
            }
        }

        Assert.Equal(((ulong)NameLikeKeys.Length, ""), MainTree(StorePath));
        using var reopened = Open(StorePath, feed: null);
        StoreAssert.KeysEqual(NameLikeKeys, StoreAssert.Scan(reopened, []));
    }

    [Fact]
    public async Task A_damaged_change_log_record_is_reported_by_verify_and_ends_a_watch_naming_the_commit()
    {
        using var store = (LmdbStore)Open(StorePath, feed: true);
        store.Put("a/1"u8, [1]);
        WriteRawRecord(store, 2, [9, 1, (byte)'a']); // change kind 9 does not exist

        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        var events = new List<StoreChange>();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(30));
        var error = await Assert.ThrowsAsync<StoreFormatException>(async () =>
        {
            await foreach (var change in store.Watch("a/"u8, afterSequence: 0, deadline.Token))
            {
                events.Add(change);
            }
        });

        Assert.False(report.IsHealthy);
        Assert.Contains(report.Problems, p => p.Contains("change-log record of commit 2", StringComparison.Ordinal) && p.Contains(LmdbEnvironment.DataFile, StringComparison.Ordinal));
        Assert.Equal([1L], events.Select(e => e.Sequence));
        Assert.Contains("commit 2", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_manifest_turning_the_feed_on_over_pairs_stored_without_it_is_refused_naming_the_data_file()
    {
        var plain = _directory.Sub("plain");
        using (var store = Open(plain, feed: null))
        {
            store.Put("k"u8, "v"u8);
        }

        Open(StorePath, feed: true).Dispose();
        File.Copy(Path.Combine(StorePath, Manifest.StoreManifest.FileName), Path.Combine(plain, Manifest.StoreManifest.FileName), overwrite: true);

        var error = Assert.ThrowsAny<DataStoreException>(() => Open(plain, feed: null));

        Assert.Contains("layout of a store without it", error.Message, StringComparison.Ordinal);
        Assert.Contains(LmdbEnvironment.DataFile, error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();

    private static IKeyValueStore Open(string path, bool? feed) =>
        KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb, ChangeFeed = feed, Timeout = TimeSpan.FromSeconds(30) });

    // The main tree's record count and the named trees it lists (space-separated), read from the data file with our own reader.
    private static (ulong Entries, string Named) MainTree(string path)
    {
        using var file = LmdbDataFile.Open(path, Path.Combine(path, LmdbEnvironment.DataFile));
        var named = new List<(string Name, LmdbTree Tree)>();
        new LmdbTreeReader(file).Walk(file.Meta.Main, "main", static (_, _) => { }, named: named);
        return (file.Meta.Main.Entries, string.Join(' ', named.Select(n => n.Name)));
    }

    // A change-log record written through LMDB directly, as damage would leave it.
    private static void WriteRawRecord(LmdbStore store, long sequence, byte[] record)
    {
        var key = new byte[sizeof(long)];
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(key, sequence);
        LmdbTestStores.PutRaw(store, store.Environment.FeedDbi, key, record);
    }
}

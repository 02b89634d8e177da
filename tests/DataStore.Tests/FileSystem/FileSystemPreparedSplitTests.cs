using System.Text;
using DataStore.FileSystem;
using DataStore.Platform;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// A FileSystem split is prepared beside the writers (issue 23 item 11, ADR 0008): the leaf's files get hard links in
/// child directories in short steps, another writer of the store puts and deletes in the leaf meanwhile, and the publish
/// under the lock relinks only what changed; a preparation cut off before or after its publish is undone or finished by
/// the next open. Checked by what happens while the lock is held, not by timing. With
/// <c>DATASTORE_FILESYSTEM_PREPARED_SPLIT=0</c> (the old way: every file moved under the lock when the leaf is full) both fail.
/// </summary>
public sealed partial class FileSystemPreparedSplitTests : IDisposable
{
    private const int Limit = 64; // a split is prepared from 48 files (three quarters)
    private readonly TemporaryDirectory _directory = new();
    private Exception? _hookFailure;

    private string StorePath => _directory.Sub("store");

    private string Data => Path.Combine(StorePath, "data");

    // A second open of the store in this process, with the same lowered split limit.
    private FileSystemStore OpenSecond(Durability durability, TimeSpan timeout) => FileSystemStore.Open(StorePath, durability,
        new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem, Timeout = timeout }, NullLogger.Instance, maxEntries: Limit);

    [Fact]
    public void A_split_is_prepared_while_another_writer_changes_the_leaf_and_publishes_only_those_changes_under_the_lock()
    {
        Assert.SkipUnless(PosixLinks.Available, "splits are prepared with hard links on Linux only");
        using var store = OpenPreparing();
        using var other = OpenSecond(Durability.Relaxed, TimeSpan.FromSeconds(1));
        var seen = new List<string>();
        int? changes = null;
        SplitPreparation.BeforePublishForTests = root =>
        {
            if (IsOurs(root))
            {
                seen.Add(File.Exists(Path.Combine(Data, KeyNames.SplitMarker)) ? "published already" : "not published");
                seen.Add(Directory.GetDirectories(Data).Length > 0 ? "children linked" : "no children");
                try
                {
                    other.Put(Bytes.Utf8("k/000"), Bytes.Utf8("new"));
                    other.Put(Bytes.Utf8("k/new"), Bytes.Utf8("n"));
                    other.Delete(Bytes.Utf8("k/001"));
                    seen.Add("got in");
                }
                catch (DataStoreException e)
                {
                    seen.Add($"waited: {e.GetType().Name}");
                }
            }
        };
        SplitPreparation.PublishedForTests = (root, count, _) => changes = IsOurs(root) ? count : changes;
        LeafSplitter.MovesForTests = 0;
        SplitAndClearHooks(store);

        // Before, nothing was prepared: the leaf split only when full, moving every file holding the write lock.
        Assert.Equal(["not published", "children linked", "got in"], seen);
        Assert.Equal(2, changes); // the overwritten and the new key (the deleted one lost its link at its delete): not the leaf's 48 files
        Assert.Equal(0, LeafSplitter.MovesForTests);
        var expected = AfterTheOtherWriter();
        Assert.Equal(expected, Pairs(store));
        Assert.Equal(expected, Pairs(other));
        Assert.Equal([TreeRoot.MarkerName, KeyNames.SplitMarker], Directory.GetFiles(Data).Select(Path.GetFileName).Order(StringComparer.Ordinal));
        Assert.Empty(EngineMaintenance.CheckIntegrity(store, TestContext.Current.CancellationToken));
    }

    [Fact]
    public void The_publish_syncs_no_directory_while_holding_the_write_lock()
    {
        Assert.SkipUnless(PosixLinks.Available, "splits are prepared with hard links on Linux only");
        using var store = OpenPreparing();
        using var other = OpenSecond(Durability.Relaxed, TimeSpan.FromSeconds(5));
        SplitPreparation.BeforePublishForTests = root =>
        {
            if (IsOurs(root))
            {
                other.Put(Bytes.Utf8("k/000"), Bytes.Utf8("new"));
                other.Put(Bytes.Utf8("k/new"), Bytes.Utf8("n"));
                other.Delete(Bytes.Utf8("k/001"));
            }
        };
        (int Changes, int SyncsUnderLock)? published = null;
        SplitPreparation.PublishedForTests = (root, changes, syncs) => published = IsOurs(root) ? (changes, syncs) : published;
        SplitAndClearHooks(store);

        // Before, the publish relinked those 3 names and fsynced their child directory holding the lock (a Put beside it waited for the disk).
        Assert.Equal((2, 0), published); // the overwritten and the new key, relinked in a round before the marker
        var expected = AfterTheOtherWriter();
        Assert.Equal(expected, Pairs(store));
        Assert.Empty(EngineMaintenance.CheckIntegrity(store, TestContext.Current.CancellationToken));
    }

    [Fact]
    public void A_key_deleted_while_its_split_is_prepared_gives_its_prepared_link_back_at_once()
    {
        Assert.SkipUnless(PosixLinks.Available, "splits are prepared with hard links on Linux only");
        using var store = OpenPreparing();
        using var other = OpenSecond(Durability.Relaxed, TimeSpan.FromSeconds(5));
        var child = Path.Combine(Data, KeyNames.ChildName((byte)'k'), "k+2f001"); // k/001's link in the prepared child
        var seen = new List<string>();
        SplitPreparation.BeforePublishForTests = root =>
        {
            if (IsOurs(root))
            {
                seen.Add(File.Exists(child) ? "linked" : "not linked");
                other.Delete(Bytes.Utf8("k/001"));
                seen.Add(File.Exists(child) ? "link kept" : "link gone");
            }
        };
        SplitAndClearHooks(store);

        // Before, the link kept the deleted key's file (its space) until the publish.
        Assert.Equal(["linked", "link gone"], seen);
        Assert.False(store.HaveKey(Bytes.Utf8("k/001")));
        Assert.Equal(47, Pairs(store).Count);
        Assert.Empty(EngineMaintenance.CheckIntegrity(store, TestContext.Current.CancellationToken));
    }

    [Fact]
    public void A_preparation_cut_off_before_or_after_its_publish_is_undone_or_finished_by_the_next_open()
    {
        Assert.SkipUnless(PosixLinks.Available, "splits are prepared with hard links on Linux only");
        var before = _directory.Sub("before");
        var after = _directory.Sub("after");
        using (var store = OpenPreparing())
        {
            // A copy of the directory at each point is what a kill -9 there leaves on disk.
            SplitPreparation.BeforePublishForTests = root => Copy(root, StorePath, before);
            SplitPreparation.AfterPublishForTests = root => Copy(root, StorePath, after);
            SplitAndClearHooks(store);
        }

        var expected = Enumerable.Range(0, 48).Select(i => $"k/{i:D3}={i}").ToList();
        foreach (var (copy, published) in new[] { (before, false), (after, true) })
        {
            Assert.True(File.Exists(Path.Combine(copy, PreparedSplitRecord.FileName)), "the record was there when it stopped");
            using var reopened = FileSystemStore.Open(copy, Durability.Relaxed, new DataStoreOptions { Path = copy, Backend = StoreBackend.FileSystem }, NullLogger.Instance, maxEntries: Limit);
            Assert.Equal(expected, Pairs(reopened));
            Assert.False(File.Exists(Path.Combine(copy, PreparedSplitRecord.FileName)));
            var data = Path.Combine(copy, "data");
            Assert.Equal(published, File.Exists(Path.Combine(data, KeyNames.SplitMarker)));
            Assert.Equal(published ? 1 : 0, Directory.GetDirectories(data).Length); // every key starts with 'k'
            Assert.Equal(published ? 1 : 48, Directory.GetFiles(data).Count(f => Path.GetFileName(f) != TreeRoot.MarkerName));
            Assert.Empty(reopened.CheckIntegrityCore(TestContext.Current.CancellationToken));
        }
    }

    [Fact]
    public void A_durable_write_beside_a_prepared_split_syncs_its_directories_and_the_leaf_not_the_whole_file_system()
    {
        Assert.SkipUnless(PosixLinks.Available, "splits are prepared with hard links on Linux only");
        using var store = OpenPreparing();
        using var durable = OpenSecond(Durability.Durable, TimeSpan.FromSeconds(5));
        var syncs = new List<string>();
        void Write(string root, string stage, int deleted)
        {
            if (!IsOurs(root))
            {
                return;
            }

            var count = 0;
            FileSystemSync.BeforeSyncForTests = () => count++;
            try
            {
                durable.Put(Bytes.Utf8($"k/{stage}"), Bytes.Utf8(stage));
                durable.Write(new WriteBatch().Put(Bytes.Utf8($"k/{stage}-a"), Bytes.Utf8("a")).Put(Bytes.Utf8($"k/{stage}-b"), Bytes.Utf8("b")));
                durable.Delete(Bytes.Utf8($"k/{deleted:D3}"));
            }
            finally
            {
                FileSystemSync.BeforeSyncForTests = null;
            }

            syncs.Add($"{stage}: {count} file system syncs");
        }

        SplitPreparation.BeforePublishForTests = root => Write(root, "before", 2);
        SplitPreparation.AfterPublishForTests = root => Write(root, "after", 3);
        SplitAndClearHooks(store);

        // Before, each of these durable writes synced the whole file system (a disk's worth of others' writes included).
        Assert.Equal(["before: 0 file system syncs", "after: 0 file system syncs"], syncs);
        var expected = Enumerable.Range(0, 48).Where(i => i is not (2 or 3)).Select(i => ($"k/{i:D3}", $"{i}"))
            .Concat(new[] { "before", "after" }.SelectMany(s => new[] { ($"k/{s}", s), ($"k/{s}-a", "a"), ($"k/{s}-b", "b") }))
            .OrderBy(p => p.Item1, StringComparer.Ordinal).Select(p => $"{p.Item1}={p.Item2}").ToList();
        Assert.Equal(expected, Pairs(durable));
        Assert.Empty(durable.CheckIntegrityCore(TestContext.Current.CancellationToken));
    }

    public void Dispose() => _directory.Dispose();

    private IKeyValueStore OpenPreparing()
    {
        PreparedSplitLimits.ForceForTests = true;
        try
        {
            return FileSystemTestStore.Open(StorePath, maxEntries: Limit);
        }
        finally
        {
            PreparedSplitLimits.ForceForTests = false;
        }
    }

    // A test hook that throws makes the preparation give up (the leaf then splits the old way): the wait names why.
    private Action<string>? Recorded(Action<string>? hook) => hook is null ? null : root =>
    {
        try
        {
            hook(root);
        }
        catch (Exception e)
        {
            _hookFailure = e;
            throw;
        }
    };

    private bool IsOurs(string root) => Path.GetFullPath(root) == Path.GetFullPath(StorePath);

    private static void PutKeys(IKeyValueStore store, int count)
    {
        for (var i = 0; i < count; i++)
        {
            store.Put(Bytes.Utf8($"k/{i:D3}"), Bytes.Utf8($"{i}"));
        }
    }

    /// <summary>Puts the 48 keys a split is prepared from and waits for its publish, then clears every preparation hook.</summary>
    private void SplitAndClearHooks(IKeyValueStore store)
    {
        SplitPreparation.BeforePublishForTests = Recorded(SplitPreparation.BeforePublishForTests);
        SplitPreparation.AfterPublishForTests = Recorded(SplitPreparation.AfterPublishForTests);
        try
        {
            PutKeys(store, 48);
            WaitForPublish();
        }
        finally
        {
            SplitPreparation.BeforePublishForTests = null;
            SplitPreparation.AfterPublishForTests = null;
            SplitPreparation.PublishedForTests = null;
        }
    }

    private void WaitForPublish()
    {
        var until = DateTime.UtcNow.AddSeconds(60);
        while (!(File.Exists(Path.Combine(Data, KeyNames.SplitMarker)) && !File.Exists(Path.Combine(StorePath, PreparedSplitRecord.FileName))))
        {
            Assert.True(DateTime.UtcNow < until, $"the split was not prepared and published within 60 s; a test hook threw: {_hookFailure?.ToString() ?? "no"}");
            Thread.Sleep(20);
        }
    }

    // The 48 keys after the other writer overwrote k/000, added k/new and deleted k/001.
    private static List<string> AfterTheOtherWriter() => Enumerable.Range(0, 48).Where(i => i != 1)
        .Select(i => $"k/{i:D3}={(i == 0 ? "new" : $"{i}")}").Append("k/new=n").Order(StringComparer.Ordinal).ToList();

    private static List<string> Pairs(IKeyValueStore store) =>
        StoreAssert.Scan(store, []).Select(p => $"{Encoding.UTF8.GetString(p.Key)}={Encoding.UTF8.GetString(p.Value)}").ToList();

    private void Copy(string root, string from, string to)
    {
        if (!IsOurs(root))
        {
            return;
        }

        foreach (var directory in Directory.GetDirectories(from, "*", SearchOption.AllDirectories).Prepend(from))
        {
            Directory.CreateDirectory(Path.Combine(to, Path.GetRelativePath(from, directory)));
        }

        foreach (var file in Directory.GetFiles(from, "*", SearchOption.AllDirectories))
        {
            File.Copy(file, Path.Combine(to, Path.GetRelativePath(from, file)));
        }
    }
}

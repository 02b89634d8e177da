using System.Text;
using DataStore.FileSystem;
using DataStore.Platform;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// A FileSystem writer does not wait for other writers' disk I/O (issue 23 item 11): a Put writes and flushes its key
/// file before it takes the write lock, a split's file system sync runs after the lock is let go, and a backup's copy
/// is not synced batch by batch. Each is checked by what runs while the lock is held, not by timing.
/// </summary>
public sealed class FileSystemWriterStallTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_put_writes_and_flushes_its_key_file_before_it_waits_for_the_write_lock()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        var value = Enumerable.Range(0, 1000).Select(i => (byte)i).ToArray();
        string[]? before = null;
        StoreLocks.BeforeWriteLockForTests = () => before ??= Directory.GetFiles(Path.Combine(StorePath, "tmp"));
        try
        {
            store.Put(Bytes.Utf8("mods/skyui"), value);
        }
        finally
        {
            StoreLocks.BeforeWriteLockForTests = null;
        }

        // Before, the file was written (and fsynced) holding the lock, so tmp/ was empty when the Put asked for it.
        Assert.NotNull(before);
        var written = Assert.Single(before);
        Assert.False(File.Exists(written), "the temporary file was renamed into place");
        Assert.Equal(value, store.Get(Bytes.Utf8("mods/skyui")));
        Assert.Empty(Directory.GetFiles(Path.Combine(StorePath, "tmp")));
    }

    [Fact]
    public void A_split_lets_another_writer_in_before_it_syncs_the_file_system()
    {
        using var store = FileSystemTestStore.Open(StorePath, maxEntries: 64, durability: Durability.Durable);
        using var other = FileSystemStore.Open(StorePath, Durability.Relaxed,
            new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem, Timeout = TimeSpan.FromSeconds(1) }, NullLogger.Instance, maxEntries: 64);
        var outcomes = new List<string>();
        FileSystemSync.BeforeSyncForTests = () =>
        {
            FileSystemSync.BeforeSyncForTests = null;
            try
            {
                other.Put(Bytes.Utf8("other"), Bytes.Utf8("in"));
                outcomes.Add("got in");
            }
            catch (DataStoreException e)
            {
                outcomes.Add($"waited: {e.GetType().Name}");
            }
        };

        var keys = 0;
        try
        {
            // The 65th key splits the top directory (the limit is 64).
            for (; keys < 100 && outcomes.Count == 0; keys++)
            {
                store.Put(Bytes.Utf8($"k/{keys:D3}"), Bytes.Utf8($"{keys}"));
            }
        }
        finally
        {
            FileSystemSync.BeforeSyncForTests = null;
        }

        // Before, the split synced holding the write lock, and the other writer timed out waiting for it.
        Assert.Equal(["got in"], outcomes);
        Assert.True(File.Exists(Path.Combine(StorePath, "data", KeyNames.SplitMarker)));
        Assert.False(File.Exists(Path.Combine(StorePath, LeafSplitter.PendingFile)), "the split's record goes once its sync completed");
        var expected = Enumerable.Range(0, keys).Select(i => $"k/{i:D3}={i}").Append("other=in").Order(StringComparer.Ordinal);
        Assert.Equal(expected, StoreAssert.Scan(store, []).Select(p => $"{Encoding.UTF8.GetString(p.Key)}={Encoding.UTF8.GetString(p.Value)}"));
        Assert.Empty(EngineMaintenance.CheckIntegrity(store, TestContext.Current.CancellationToken));
    }

    [Fact]
    public void A_backup_copies_without_syncing_the_file_system_batch_by_batch()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        var batch = new WriteBatch();
        for (var i = 0; i < 5_000; i++)
        {
            batch.Put(Bytes.Utf8($"k/{i:D5}"), Bytes.Utf8($"{i}"));
        }

        store.Write(batch);
        var syncs = 0;
        var copy = _directory.Sub("copy");
        Directory.CreateDirectory(copy);
        FileSystemSync.BeforeSyncForTests = () => syncs++;
        try
        {
            EngineMaintenance.Of(store).Backup(copy, null, TestContext.Current.CancellationToken);
        }
        finally
        {
            FileSystemSync.BeforeSyncForTests = null;
        }

        // Before, every 1,024-pair batch of the copy ended in a file system sync (5 here, and one for the copy's split);
        // each made the app's own fsyncs wait behind the backup's data. StoreBackup syncs the copy once, as a whole.
        Assert.Equal(0, syncs);
        Assert.False(File.Exists(Path.Combine(copy, LeafSplitter.PendingFile)));
        using var opened = KeyValueStore.Open(new DataStoreOptions { Path = copy });
        Assert.Equal(5_000, StoreAssert.Scan(opened, []).Count);
        Assert.Equal(Bytes.Utf8("4321"), opened.Get(Bytes.Utf8("k/04321")));
    }

    public void Dispose() => _directory.Dispose();
}

using System.Text;
using DataStore.FileSystem;
using DataStore.Platform;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.FileSystem;

// Relaxed ordering beside a prepared split (ADR 0008, *Relaxed ordering*): between the publish, which writes the leaf's
// marker under the lock, and the file system sync that makes the marker durable, a Put lands in a child. Recovery removes
// the children of a leaf whose marker a power loss took, so a batch there must sync the leaf with the child: else a power
// loss keeps the batch (and the Put, in the child's synced entry) but not the marker, and recovery drops the Put.
public sealed partial class FileSystemPreparedSplitTests
{
    [Fact]
    public void A_relaxed_batch_after_a_publish_syncs_the_leaf_whose_marker_is_not_synced_yet()
    {
        Assert.SkipUnless(PosixLinks.Available, "splits are prepared with hard links on Linux only");
        using var store = OpenPreparingWithoutBackgroundSync();
        var synced = new List<string>();
        SplitPreparation.BeforePublishForTests = root =>
        {
            if (IsOurs(root))
            {
                store.Write(new WriteBatch().Delete(Bytes.Utf8("k/none"))); // syncs the 48 Puts' leaf: nothing there is left unsynced
            }
        };
        SplitPreparation.PublishedForTests = (root, _, _) =>
        {
            if (!IsOurs(root))
            {
                return;
            }

            // On the preparation's thread: its next file system sync is the marker's, which runs after the lock is let go.
            FileSystemSync.BeforeSyncForTests = () =>
            {
                FileSystemSync.BeforeSyncForTests = null;
                store.Put(Bytes.Utf8("k/after"), Bytes.Utf8("a")); // into the child made for "k"
                UnsyncedDirectories.SyncingForTests = synced.Add;
                try
                {
                    store.Write(new WriteBatch().Put(Bytes.Utf8("k/batch"), Bytes.Utf8("b")));
                }
                finally
                {
                    UnsyncedDirectories.SyncingForTests = null;
                }
            };
        };
        SplitAndClearHooks(store);

        // Before, the batch fsynced only the child its Put went to: the leaf, holding the unsynced marker, was not tracked.
        // Now both are, and more than one directory is one file system sync (FileSystemRelaxedOrderTests).
        Assert.Equal([Path.GetFullPath(StorePath)], synced.Select(Path.GetFullPath));
        Assert.Equal("a", Encoding.UTF8.GetString(store.Get(Bytes.Utf8("k/after"))!));
        Assert.Equal("b", Encoding.UTF8.GetString(store.Get(Bytes.Utf8("k/batch"))!));
    }

    // Splits prepared at a limit of 64, and no background sync within the test (it would make the marker durable first).
    private IKeyValueStore OpenPreparingWithoutBackgroundSync()
    {
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem }).Dispose();
        PreparedSplitLimits.ForceForTests = true;
        try
        {
            return FileSystemStore.Open(StorePath, Durability.Relaxed,
                new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem, SyncInterval = TimeSpan.FromHours(1) }, NullLogger.Instance, maxEntries: Limit);
        }
        finally
        {
            PreparedSplitLimits.ForceForTests = false;
        }
    }
}

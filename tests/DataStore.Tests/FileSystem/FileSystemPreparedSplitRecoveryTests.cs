using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// A prepared split's record survives a power loss that took its leaf: Relaxed Puts made the leaf (a new next byte) and
/// no sync made its entry durable, while the record was synced (the power-loss test, seed 291092559: the store did not
/// open, "could not open directory ... to sync it (errno 2)"). The open drops the record; the leaf's keys went with it.
/// </summary>
public sealed class FileSystemPreparedSplitRecoveryTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_prepared_split_record_whose_leaf_is_gone_is_dropped_at_open()
    {
        var path = _directory.Sub("store");
        using (var store = FileSystemTestStore.Open(path))
        {
            store.Put(Bytes.Utf8("a"), Bytes.Utf8("1"));
        }

        PreparedSplitRecord.Write(path, Guid.NewGuid(), Bytes.Utf8("pu")); // the leaf data/x70/x75, never made
        PreparedSplitRecord.Sync(path);

        using var reopened = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.FileSystem });
        Assert.False(PreparedSplitRecord.Exists(path));
        Assert.Equal("1", System.Text.Encoding.UTF8.GetString(reopened.Get(Bytes.Utf8("a"))!));
        Assert.Empty(EngineMaintenance.CheckIntegrity(reopened, TestContext.Current.CancellationToken));
    }

    public void Dispose() => _directory.Dispose();
}

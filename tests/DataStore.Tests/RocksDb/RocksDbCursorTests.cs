using DataStore.RocksDb;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.Tests.RocksDb;

/// <summary>RocksDb scans read from their iterator's implicit snapshot: no explicit snapshot, so no turn of RocksDB's database mutex per scan.</summary>
public sealed class RocksDbCursorTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void An_open_scan_holds_no_RocksDB_snapshot_and_still_does_not_see_later_writes()
    {
        Directory.CreateDirectory(_directory.Sub("store"));
        using var store = RocksDbStore.Open(_directory.Sub("store"), Durability.Relaxed, new DataStoreOptions { Path = _directory.Sub("store") }, NullLogger.Instance);
        store.Put([1], [1]);
        using var cursor = store.ScanRange([], []);
        store.Put([2], [2]);

        Assert.Equal(0, Rocks.rocksdb_property_int(store.Db, "rocksdb.num-snapshots", out var snapshots));
        Assert.Equal(0UL, snapshots);
        StoreAssert.KeysEqual([[1]], StoreAssert.Drain(cursor));
    }

    public void Dispose() => _directory.Dispose();
}

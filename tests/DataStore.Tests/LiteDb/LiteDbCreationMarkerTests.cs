using DataStore.Tests.Conformance;
using LiteDB;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// Issue 20's kill -9 defect: a process killed while creating a store left the collections' creation marker (id 0x00,
/// no value), which verify reported as damage after about one round in 50-200.
/// </summary>
public sealed class LiteDbCreationMarkerTests : StoreContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    [Fact]
    public async Task A_creation_marker_left_by_a_killed_creation_is_removed_when_the_store_opens_and_a_real_key_0x00_stays()
    {
        var store = Open();
        store.Put([1], [1]);
        store.Dispose();

        // What the killed process left: the marker inserted, its deletion never committed.
        using (var engine = new LiteDB.Engine.LiteEngine(Path.Combine(StorePath, "store.litedb")))
        {
            engine.Insert("kv", [new BsonDocument { ["_id"] = new BsonValue(new byte[] { 0 }) }], BsonAutoId.ObjectId);
        }

        store = Open();
        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
        StoreAssert.KeysEqual([[1]], StoreAssert.Scan(store, []));

        store.Put([0], [7]);
        store.Dispose();
        store = Open();
        StoreAssert.Holds(store, [0], [7]);
        StoreAssert.KeysEqual([[0], [1]], StoreAssert.Scan(store, []));
    }
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

/// <summary>What the RocksDB backend does beyond the shared contract: allocation-free reads and open-ended range deletes.</summary>
public sealed class RocksDbStoreTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private readonly IKeyValueStore _store;

    public RocksDbStoreTests()
    {
        _store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.RocksDb });
    }

    [Fact]
    public void Get_into_a_caller_buffer_and_HaveKey_allocate_nothing()
    {
        byte[] hit = [1, 2, 3];
        byte[] miss = [1, 2, 4];
        _store.Put(hit, Bytes.Random(128, 1));
        var buffer = new byte[256];
        _store.Get(hit, buffer);
        _store.HaveKey(miss);

        var before = GC.GetAllocatedBytesForCurrentThread();
        var total = 0;
        for (var i = 0; i < 1_000; i++)
        {
            total += _store.Get(hit, buffer) + _store.Get(miss, buffer) + (_store.HaveKey(hit) ? 1 : 0) + (_store.HaveKey(miss) ? 1 : 0);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(1_000 * 128, total);
    }

    [Fact]
    public void Get_reports_the_length_of_a_value_that_does_not_fit_and_copies_nothing()
    {
        _store.Put([1], Bytes.Random(100, 2));
        var small = new byte[10];

        Assert.Equal(100, _store.Get([1], small));
        Assert.All(small, b => Assert.Equal(0, b));
    }

    [Fact]
    public void An_open_ended_prefix_delete_in_a_batch_removes_keys_put_earlier_in_the_batch_but_not_later()
    {
        _store.Put([0xFF, 1], [1]);
        _store.Write(new WriteBatch().Put([0xFF, 0xFF, 9], [2]).DeletePrefix([0xFF]).Put([0xFF, 0xFF, 0xFF, 5], [3]));

        StoreAssert.KeysEqual([[0xFF, 0xFF, 0xFF, 5]], StoreAssert.Scan(_store, []));
    }

    [Fact]
    public void An_open_ended_DeleteRange_counts_and_removes_through_the_last_key()
    {
        _store.Put([1], [1]);
        _store.Put([2], [2]);
        _store.Put([0xFF, 0xFF, 0xFF], [3]);

        Assert.Equal(2, _store.DeleteRange([2], []));
        Assert.Equal(0, _store.DeleteRange([2], []));
        StoreAssert.KeysEqual([[1]], StoreAssert.Scan(_store, []));
    }

    public void Dispose()
    {
        _store.Dispose();
        _directory.Dispose();
    }
}

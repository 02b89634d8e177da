namespace DataStore.Tests.Conformance;

/// <summary>Rule 3: Put inserts or overwrites, Get reads, HaveKey tests, Delete removes; DeletePrefix and DeleteRange remove groups atomically.</summary>
public abstract class PointAndRangeContract : StoreContract
{
    [Fact]
    public void Put_overwrites_an_existing_value()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1, 1, 1));
        store.Put(Bytes.Of(1), Bytes.Of(2));
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(2));
        Assert.Single(StoreAssert.Scan(store, []));
    }

    [Fact]
    public void Get_and_HaveKey_report_an_absent_key()
    {
        var store = Open();
        store.Put(Bytes.Of(1, 0), Bytes.Of(1));
        Assert.Null(store.Get(Bytes.Of(1)));
        Assert.False(store.HaveKey(Bytes.Of(1)));
        Assert.True(store.HaveKey(Bytes.Of(1, 0)));
    }

    [Fact]
    public void Delete_removes_a_key_and_ignores_an_absent_one()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Delete(Bytes.Of(1));
        store.Delete(Bytes.Of(1));
        store.Delete(Bytes.Of(2));
        Assert.False(store.HaveKey(Bytes.Of(1)));
        Assert.Empty(StoreAssert.Scan(store, []));
    }

    [Fact]
    public void DeletePrefix_removes_exactly_the_keys_with_that_prefix()
    {
        var store = Open();
        byte[][] keys = [[1], [1, 0], [1, 0xFF], [1, 0xFF, 0xFF], [2], [0], [0, 1, 0xFF]];
        foreach (var key in keys)
        {
            store.Put(key, key);
        }

        Assert.Equal(4, store.DeletePrefix(Bytes.Of(1)));
        StoreAssert.KeysEqual([[0], [0, 1, 0xFF], [2]], StoreAssert.Scan(store, []));
        Assert.Equal(0, store.DeletePrefix(Bytes.Of(1)));
    }

    [Fact]
    public void DeletePrefix_handles_prefixes_that_end_in_0xFF()
    {
        var store = Open();
        byte[][] keys = [[1, 0xFE], [1, 0xFF], [1, 0xFF, 0x00], [1, 0xFF, 0xFF, 7], [2], [2, 0]];
        foreach (var key in keys)
        {
            store.Put(key, key);
        }

        Assert.Equal(3, store.DeletePrefix(Bytes.Of(1, 0xFF)));
        StoreAssert.KeysEqual([[1, 0xFE], [2], [2, 0]], StoreAssert.Scan(store, []));
    }

    [Fact]
    public void DeletePrefix_of_all_0xFF_bytes_runs_to_the_end_of_the_store()
    {
        var store = Open();
        byte[][] keys = [[0xFE, 0xFF], [0xFF], [0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFF], [0xFF, 0xFF, 0x00]];
        foreach (var key in keys)
        {
            store.Put(key, key);
        }

        Assert.Equal(3, store.DeletePrefix(Bytes.Of(0xFF, 0xFF)));
        StoreAssert.KeysEqual([[0xFE, 0xFF], [0xFF]], StoreAssert.Scan(store, []));
    }

    [Fact]
    public void DeleteRange_removes_start_inclusive_end_exclusive_and_open_bounds_reach_the_ends()
    {
        var store = Open();
        for (byte i = 1; i <= 9; i++)
        {
            store.Put([i], [i]);
        }

        Assert.Equal(3, store.DeleteRange(Bytes.Of(3), Bytes.Of(6)));
        StoreAssert.KeysEqual([[1], [2], [6], [7], [8], [9]], StoreAssert.Scan(store, []));
        Assert.Equal(2, store.DeleteRange([], Bytes.Of(6)));
        Assert.Equal(2, store.DeleteRange(Bytes.Of(8), []));
        StoreAssert.KeysEqual([[6], [7]], StoreAssert.Scan(store, []));
        Assert.Equal(2, store.DeleteRange([], []));
        Assert.Empty(StoreAssert.Scan(store, []));
    }

    [Fact]
    public void An_empty_range_removes_nothing()
    {
        var store = Open();
        store.Put(Bytes.Of(5), Bytes.Of(5));
        Assert.Equal(0, store.DeleteRange(Bytes.Of(5), Bytes.Of(5)));
        Assert.True(store.HaveKey(Bytes.Of(5)));
    }
}

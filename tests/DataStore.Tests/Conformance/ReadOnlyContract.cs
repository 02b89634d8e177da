namespace DataStore.Tests.Conformance;

/// <summary>The read-only capability: every write method throws a read-only error naming the store, and the data stays as built.</summary>
public abstract class ReadOnlyContract : ReadContract
{
    private const string Rule = "ReadOnly: writes are refused, nothing changes";

    [Fact]
    public void Every_write_method_throws_a_read_only_error_naming_the_store()
    {
        RequireCapability(StoreCapabilities.ReadOnly, Rule);
        var store = OpenWith([([1], [1]), ([2], [2])]);
        Action[] writes =
        [
            () => store.Put([1], [9]),
            () => store.Delete([1]),
            () => store.DeletePrefix([1]),
            () => store.DeleteRange([], []),
            () => store.Write(new WriteBatch().Put([3], [3])),
            () => store.TryWrite(new WriteBatch().Delete([2]), out _),
        ];
        foreach (var write in writes)
        {
            var e = Assert.Throws<ReadOnlyStoreException>(write);
            Assert.IsAssignableFrom<NotSupportedException>(e);
            Assert.Contains(store.Path, e.Message);
            Assert.Contains("read-only", e.Message);
        }

        StoreAssert.KeysEqual([[1], [2]], StoreAssert.Scan(store, []));
        StoreAssert.Holds(store, [1], [1]);
    }

    [Fact]
    public void A_cursor_read_after_the_store_is_disposed_throws_and_its_spans_stay_readable()
    {
        RequireCapability(StoreCapabilities.ReadOnly, Rule);
        var store = OpenWith([([1], [1, 1]), ([2], [2, 2])]);
        using var cursor = store.ScanPrefix([]);
        Assert.True(cursor.MoveNext());
        store.Dispose();
        Assert.Equal(new byte[] { 1, 1 }, cursor.Value.ToArray());
        Assert.Throws<ObjectDisposedException>(() => cursor.MoveNext());
    }
}

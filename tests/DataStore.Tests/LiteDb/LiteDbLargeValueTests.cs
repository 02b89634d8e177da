using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>Values past 1 MiB live in 1 MiB chunks in a second collection, written in the same transaction as their key.</summary>
public sealed class LiteDbLargeValueTests : StoreContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    [Fact]
    public void Overwriting_and_deleting_chunked_values_leaves_no_chunks_behind()
    {
        var store = Open();
        store.Put([1], Bytes.Random(5 << 20, 1));
        store.Put([1], Bytes.Random(3 << 20, 2));
        store.Put([2], Bytes.Random(2 << 20, 3));
        store.Put([2], [7]);
        store.Write(new WriteBatch().Put([3], Bytes.Random(2 << 20, 4)).Put([4], Bytes.Random(2 << 20, 5)));
        store.DeletePrefix([3]);
        store.Delete([4]);

        StoreAssert.Holds(store, [1], Bytes.Random(3 << 20, 2));
        StoreAssert.Holds(store, [2], [7]);
        store.Dispose();

        using var engine = new LiteDB.Engine.LiteEngine(Path.Combine(StorePath, "store.litedb"));
        using var chunks = engine.Query("chunks", new LiteDB.Query());
        var count = 0;
        while (chunks.Read())
        {
            count++;
        }

        Assert.Equal(3, count);
    }

    [Fact]
    public async Task Reads_of_a_chunked_value_during_overwrites_see_one_whole_value()
    {
        var store = Open();
        var values = Enumerable.Range(0, 4).Select(i => Bytes.Random((2 << 20) + i, i)).ToArray();
        store.Put([9], values[0]);
        using var done = new CancellationTokenSource();
        var writer = Task.Run(() =>
        {
            for (var i = 1; i < 40; i++)
            {
                store.Put([9], values[i % values.Length]);
            }

            done.Cancel();
        }, TestContext.Current.CancellationToken);

        var reads = 0;
        while (!done.IsCancellationRequested || reads < 5)
        {
            var value = store.Get([9]);
            Assert.NotNull(value);
            Assert.Contains(values, v => v.AsSpan().SequenceEqual(value));
            using var cursor = store.ScanPrefix([9]);
            Assert.True(cursor.MoveNext());
            Assert.Contains(values, v => v.AsSpan().SequenceEqual(cursor.Value));
            reads++;
        }

        await writer;
    }

    [Fact]
    public void A_batch_with_a_chunked_value_that_fails_a_precondition_writes_no_chunks()
    {
        var store = Open();
        store.Put([1], [1]);
        Assert.False(store.TryWrite(new WriteBatch().RequireAbsent([1]).Put([2], Bytes.Random(3 << 20, 6)), out _));
        Assert.False(store.HaveKey([2]));
        Assert.Single(StoreAssert.Scan(store, []));
    }
}

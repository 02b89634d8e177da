using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>Compact copies the store into a fresh file and swaps it in; reads running meanwhile never fail.</summary>
public sealed class LiteDbCompactTests : StoreContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    [Fact]
    public async Task Reads_and_new_scans_during_Compact_see_the_data()
    {
        var store = Open();
        for (var i = 0; i < 2_000; i++)
        {
            store.Put([1, (byte)(i >> 8), (byte)i], Bytes.Random(100, i));
        }

        store.Put([2], Bytes.Random(3 << 20, 7));
        using var done = new CancellationTokenSource();
        var readers = Enumerable.Range(0, 2).Select(r => Task.Run(() =>
        {
            var reads = 0;
            while (!done.IsCancellationRequested || reads < 20)
            {
                StoreAssert.Holds(store, [1, 0, 7], Bytes.Random(100, 7));
                Assert.Equal(3 << 20, store.Get([2])!.Length);
                Assert.Equal(2_000, StoreAssert.Scan(store, [1], keysOnly: true).Count);
                reads++;
            }
        }, TestContext.Current.CancellationToken)).ToArray();

        for (var round = 0; round < 3; round++)
        {
            store.Compact();
        }

        done.Cancel();
        await Task.WhenAll(readers);
        StoreAssert.Holds(store, [2], Bytes.Random(3 << 20, 7));
    }
}

namespace DataStore.Tests.Lmdb;

/// <summary>
/// LMDB keys its free-page tree by transaction id, a native integer (MDB_INTEGERKEY): our page reader must check that
/// tree in integer order, not byte order, or verify calls an intact store damaged once transaction ids pass 256 (the
/// power-loss test's Durable soak hit it: "a key on page 13 of its free-page tree is out of order").
/// </summary>
public sealed class LmdbFreePageOrderTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Verify_finds_an_intact_store_healthy_when_its_free_page_tree_holds_transaction_ids_past_256()
    {
        var path = _directory.Sub("store");
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb });
        using var reader = ChildProcess.Start(["hold-scan", path, "Lmdb", "-", "60000"]);
        reader.WaitForLine(l => l == "SCANNING", TimeSpan.FromSeconds(60)); // its snapshot keeps every page freed after it listed
        for (var i = 0; i < 600; i++)
        {
            store.Put([(byte)(i >> 8), (byte)i], "value"u8); // one transaction each: one free-page record per transaction id
        }

        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
    }

    public void Dispose() => _directory.Dispose();
}

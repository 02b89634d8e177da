namespace DataStore.Tests.Transfer;

/// <summary>Export from each backend, import into another: the same pairs, the same digest, the same verify checksum.</summary>
public sealed class CrossBackendTransferTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public void Dispose() => _directory.Dispose();

    [Theory]
    [MemberData(nameof(TransferData.NextPairs), MemberType = typeof(TransferData))]
    public async Task Export_then_import_into_another_backend_gives_an_identical_store(StoreBackend from, StoreBackend to)
    {
        TransferData.RequireAvailable(from, to);
        var pairs = TransferData.EdgePairs();
        var dumpPath = _directory.Sub("store.dump");
        StoreDigest exported;
        List<(byte[] Key, byte[] Value)> original;
        using (var source = TransferData.Fill(_directory.Sub("source"), from, pairs))
        {
            original = TransferData.ReadAll(source);
            await using var file = File.Create(dumpPath);
            exported = await source.ExportAsync(file, cancellationToken: Token);
        }

        TransferData.AssertSamePairs(TransferData.Sorted(pairs), original);
        Assert.Equal(pairs.Count, exported.Pairs);

        StoreDigest imported;
        await using (var file = File.OpenRead(dumpPath))
        {
            imported = await StoreMaintenance.ImportAsync(file, TransferData.Options(_directory.Sub("copy"), to), cancellationToken: Token);
        }

        Assert.Equal(exported, imported);
        using var copy = KeyValueStore.Open(_directory.Sub("copy"));
        Assert.Equal(to, copy.Backend);
        TransferData.AssertSamePairs(original, TransferData.ReadAll(copy));
        var report = await copy.VerifyAsync(cancellationToken: Token);
        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
        Assert.Equal(exported, report.Digest);
    }

    [Fact]
    public async Task Export_reports_counting_then_exporting_with_the_total()
    {
        using var store = TransferData.Fill(_directory.Sub("source"), StoreBackend.Sqlite, TransferData.EdgePairs(largeValue: false, ordinary: 3000));
        var reports = new List<StoreProgress>();
        var digest = await store.ExportAsync(Stream.Null, new SynchronousProgress(reports.Add), Token);
        Assert.Equal(StorePhase.Counting, reports[0].Phase);
        var exporting = reports.Where(r => r.Phase == StorePhase.Exporting).ToList();
        Assert.NotEmpty(exporting);
        Assert.All(exporting, r => Assert.Equal(digest.Pairs, r.TotalPairs));
        Assert.Equal(digest.Pairs, exporting[^1].Pairs);
        Assert.True(reports.Count < 50, $"{reports.Count} reports for a small store; at most about ten a second are expected");
    }

    [Fact]
    public async Task An_empty_store_exports_and_imports()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        using var dump = new MemoryStream();
        var exported = await store.ExportAsync(dump, cancellationToken: Token);
        Assert.Equal(new StoreDigest(0, 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), exported);
        dump.Position = 0;
        Assert.Equal(exported, await StoreMaintenance.ImportAsync(dump, TransferData.Options(_directory.Sub("copy"), StoreBackend.Sqlite), cancellationToken: Token));
    }

    [Fact]
    public async Task Cancelled_export_stops()
    {
        using var store = TransferData.Fill(_directory.Sub("source"), StoreBackend.Sqlite, TransferData.EdgePairs(largeValue: false, ordinary: 3000));
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var progress = new SynchronousProgress(p =>
        {
            if (p.Phase == StorePhase.Exporting)
            {
                cancel.Cancel();
            }
        });
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => store.ExportAsync(Stream.Null, progress, cancel.Token));
    }
}

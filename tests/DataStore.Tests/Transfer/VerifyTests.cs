using DataStore.Tests.Conformance;

namespace DataStore.Tests.Transfer;

/// <summary>Verify reads every pair (scan and Get) and reports problems instead of failing.</summary>
public sealed class VerifyTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public void Dispose() => _directory.Dispose();

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task A_good_store_verifies_healthy_with_its_export_digest(StoreBackend backend)
    {
        TransferData.RequireAvailable(backend);
        using var store = TransferData.Fill(_directory.Sub("store"), backend, TransferData.EdgePairs());
        var report = await store.VerifyAsync(cancellationToken: Token);
        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
        Assert.Equal(await store.ExportAsync(Stream.Null, cancellationToken: Token), report.Digest);
    }

    [Fact]
    public async Task Verify_reports_counting_then_verifying_with_the_total()
    {
        using var store = TransferData.Fill(_directory.Sub("store"), StoreBackend.Sqlite, TransferData.EdgePairs(largeValue: false, ordinary: 300));
        var reports = new List<StoreProgress>();
        var report = await store.VerifyAsync(new SynchronousProgress<StoreProgress>(reports.Add), Token);
        Assert.Equal([StorePhase.Counting, StorePhase.Verifying], reports.Select(r => r.Phase).Distinct());
        Assert.Equal(report.Digest.Pairs, reports[^1].Pairs);
        Assert.Equal(report.Digest.Pairs, reports[^1].TotalPairs);
    }

    [Fact]
    public async Task Problems_from_Get_are_reported_not_thrown()
    {
        using var store = new FaultyStore { MissingKey = "b"u8.ToArray(), ThrowingKey = "c"u8.ToArray() };
        foreach (var key in new[] { "a", "b", "c", "d" })
        {
            store.Put(System.Text.Encoding.ASCII.GetBytes(key), "v"u8);
        }

        var report = await store.VerifyAsync(cancellationToken: Token);
        Assert.False(report.IsHealthy);
        Assert.Equal(4, report.Digest.Pairs);
        Assert.Equal(2, report.Problems.Count);
        Assert.Contains("\"b\" is listed by the scan, but Get does not find it", report.Problems[0], StringComparison.Ordinal);
        Assert.Contains("\"c\": Get failed", report.Problems[1], StringComparison.Ordinal);
        Assert.Contains("page 7 is damaged", report.Problems[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_damaged_pair_met_half_way_is_a_problem_naming_it_and_the_read_goes_on_after_it()
    {
        using var store = new FaultyStore { ScanFailsAfter = 3 };
        for (var i = 0; i < 10; i++)
        {
            store.Put([(byte)('a' + i)], "v"u8);
        }

        var report = await store.VerifyAsync(cancellationToken: Token);
        Assert.Equal(9, report.Digest.Pairs); // a, b, c, then e to j: only d is left out
        var problem = Assert.Single(report.Problems);
        Assert.Contains("a damaged pair after 3 good ones (the read goes on after key \"d\")", problem, StringComparison.Ordinal);
        Assert.Contains("a btree page is damaged", problem, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Verify_of_an_empty_store_is_healthy()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        var report = await store.VerifyAsync(cancellationToken: Token);
        Assert.True(report.IsHealthy);
        Assert.Equal(0, report.Digest.Pairs);
    }
}

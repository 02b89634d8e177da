namespace DataStore.Tests.Transfer;

/// <summary>Migrate copies a store to another backend and reports success only once the copy reads back with the same digest.</summary>
public sealed class MigrationTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public void Dispose() => _directory.Dispose();

    [Theory]
    [MemberData(nameof(TransferData.OrderedPairs), MemberType = typeof(TransferData))]
    public async Task Migrate_copies_every_pair_to_the_other_backend(StoreBackend from, StoreBackend to)
    {
        TransferData.RequireAvailable(from, to);
        var pairs = TransferData.EdgePairs(largeValue: false, ordinary: 30);
        using var source = TransferData.Fill(_directory.Sub("source"), from, pairs);
        var expected = await source.ExportAsync(Stream.Null, cancellationToken: Token);

        var digest = await source.MigrateAsync(TransferData.Options(_directory.Sub("copy"), to), cancellationToken: Token);

        Assert.Equal(expected, digest);
        Assert.Equal(["copy", "source"], TransferData.Entries(_directory.Path));
        using var copy = KeyValueStore.Open(_directory.Sub("copy"));
        Assert.Equal(to, copy.Backend);
        TransferData.AssertSamePairs(TransferData.ReadAll(source), TransferData.ReadAll(copy));
    }

    [Fact]
    public async Task Migrate_reports_counting_copying_then_verifying()
    {
        using var source = TransferData.Fill(_directory.Sub("source"), StoreBackend.Sqlite, TransferData.EdgePairs(largeValue: false, ordinary: 500));
        var reports = new List<StoreProgress>();
        var digest = await source.MigrateAsync(TransferData.Options(_directory.Sub("copy"), StoreBackend.Lmdb), new SynchronousProgress(reports.Add), Token);
        var phases = reports.Select(r => r.Phase).Distinct().ToList();
        Assert.Equal([StorePhase.Counting, StorePhase.Copying, StorePhase.Verifying], phases);
        Assert.All(reports.Where(r => r.Phase != StorePhase.Counting), r => Assert.Equal(digest.Pairs, r.TotalPairs));
        Assert.Equal(digest.Pairs, reports[^1].Pairs);
    }

    [Fact]
    public async Task Migrate_from_an_in_memory_store_keeps_the_source_durability_unless_told()
    {
        using var source = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        source.Put("a"u8, "1"u8);
        await source.MigrateAsync(TransferData.Options(_directory.Sub("copy"), StoreBackend.FileSystem), cancellationToken: Token);
        using var copy = KeyValueStore.Open(_directory.Sub("copy"));
        Assert.Equal(source.Durability, copy.Durability);
        Assert.Equal("1"u8.ToArray(), copy.Get("a"u8));
    }

    [Fact]
    public async Task Migrate_refuses_an_existing_store_and_leaves_it_alone()
    {
        using var source = TransferData.Fill(_directory.Sub("source"), StoreBackend.Sqlite, TransferData.EdgePairs(largeValue: false, ordinary: 5));
        TransferData.Fill(_directory.Sub("other"), StoreBackend.Lmdb, [("x"u8.ToArray(), [])]).Dispose();
        var e = await Assert.ThrowsAsync<DataStoreException>(() => source.MigrateAsync(TransferData.Options(_directory.Sub("other"), StoreBackend.Lmdb), cancellationToken: Token));
        Assert.Contains("not empty", e.Message, StringComparison.Ordinal);
        Assert.Equal(["other", "source"], TransferData.Entries(_directory.Path));
        using var other = KeyValueStore.Open(_directory.Sub("other"));
        Assert.Single(TransferData.ReadAll(other));
        await Assert.ThrowsAsync<ArgumentException>(() => source.MigrateAsync(TransferData.Options(_directory.Sub("source"), StoreBackend.Lmdb), cancellationToken: Token));
        Assert.Equal(12, TransferData.ReadAll(source).Count);
    }

    [Fact]
    public async Task Migrate_refuses_a_destination_inside_the_source()
    {
        using var source = TransferData.Fill(_directory.Sub("source"), StoreBackend.FileSystem, TransferData.EdgePairs(largeValue: false, ordinary: 5));
        var inside = System.IO.Path.Combine(_directory.Sub("source"), "copy");
        await Assert.ThrowsAsync<ArgumentException>(() => source.MigrateAsync(TransferData.Options(inside, StoreBackend.Sqlite), cancellationToken: Token));
        Assert.False(Directory.Exists(inside));
    }

    [Fact]
    public async Task Cancelled_migration_removes_the_copy()
    {
        using var source = TransferData.Fill(_directory.Sub("source"), StoreBackend.Sqlite, TransferData.EdgePairs(largeValue: false, ordinary: 2000));
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var progress = new SynchronousProgress(p =>
        {
            if (p.Phase == StorePhase.Copying)
            {
                cancel.Cancel();
            }
        });
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => source.MigrateAsync(TransferData.Options(_directory.Sub("copy"), StoreBackend.Lmdb), progress, cancel.Token));
        Assert.Equal(["source"], TransferData.Entries(_directory.Path));
    }
}

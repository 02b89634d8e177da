namespace DataStore.Tests.Transfer;

/// <summary>Import creates a new store only from a whole, checked dump; damage and cancellation leave nothing behind unless asked.</summary>
public sealed class ImportTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    private string Destination => _directory.Sub("imported");

    public void Dispose() => _directory.Dispose();

    /// <summary>A dump of <paramref name="count"/> pairs cut into small frames, so damage can sit in a late frame.</summary>
    private static DumpBuilder Pairs(int count, int frameLength = 1024)
    {
        var builder = new DumpBuilder { FrameLength = frameLength, PairsHint = (ulong)count };
        for (var i = 0; i < count; i++)
        {
            builder.Pair(System.Text.Encoding.ASCII.GetBytes($"k{i:D6}"), [(byte)i, 1, 2, 3]);
        }

        return builder.End();
    }

    [Fact]
    public async Task A_dump_imports_into_a_new_store_and_reports_its_digest()
    {
        var dump = Pairs(500).Build();
        var digest = await StoreMaintenance.ImportAsync(new MemoryStream(dump), TransferData.Options(Destination, StoreBackend.Sqlite), cancellationToken: Token);
        Assert.Equal(500, digest.Pairs);
        using var store = KeyValueStore.Open(Destination);
        Assert.Equal(StoreBackend.Sqlite, store.Backend);
        Assert.Equal(500, TransferData.ReadAll(store).Count);
        Assert.Equal(["imported"], TransferData.Entries(_directory.Path));
    }

    [Fact]
    public async Task A_damaged_dump_leaves_no_store_and_no_temporary_directory()
    {
        var dump = Pairs(500).Build();
        dump[dump.Length / 2] ^= 0x55;
        var e = await Assert.ThrowsAsync<DumpFormatException>(() =>
            StoreMaintenance.ImportAsync(new MemoryStream(dump), TransferData.Options(Destination, StoreBackend.Sqlite), cancellationToken: Token));
        Assert.Contains("CRC-32C", e.Message, StringComparison.Ordinal);
        Assert.Contains("Nothing was imported", e.Message, StringComparison.Ordinal);
        Assert.Empty(TransferData.Entries(_directory.Path));
    }

    [Theory]
    [InlineData("not a dump", StoreFailure.Corrupt)]
    [InlineData("newer version", StoreFailure.NewerFormat)]
    [InlineData("truncated", StoreFailure.Corrupt)]
    [InlineData("data after the trailer", StoreFailure.Corrupt)]
    [InlineData("gigabyte claim", StoreFailure.Corrupt)]
    public async Task A_hostile_dump_is_refused_and_leaves_nothing(string kind, StoreFailure cause)
    {
        var good = Pairs(50).Build();
        var dump = kind switch
        {
            "not a dump" => "PK\x03\x04 a zip file, say"u8.ToArray(),
            "newer version" => new DumpBuilder { Version = 9 }.End().Build(),
            "truncated" => good[..^20],
            "data after the trailer" => [.. good, .. good],
            _ => new DumpBuilder().Raw([.. DumpBuilder.Varint(1UL << 30), 1, 2, 3]).Build(withTrailer: false),
        };
        var e = await Assert.ThrowsAsync<DumpFormatException>(() =>
            StoreMaintenance.ImportAsync(new MemoryStream(dump), TransferData.Options(Destination, StoreBackend.Sqlite), cancellationToken: Token));
        Assert.Equal(cause, e.Cause);
        Assert.Contains(Destination, e.Message, StringComparison.Ordinal);
        Assert.Empty(TransferData.Entries(_directory.Path));
    }

    [Fact]
    public async Task A_wrong_checksum_at_the_very_end_still_leaves_nothing()
    {
        var dump = Pairs(300).Build(trailer: t => t[40] ^= 1);
        await Assert.ThrowsAsync<DumpFormatException>(() =>
            StoreMaintenance.ImportAsync(new MemoryStream(dump), TransferData.Options(Destination, StoreBackend.Lmdb), cancellationToken: Token));
        Assert.Empty(TransferData.Entries(_directory.Path));
    }

    [Fact]
    public async Task KeepPartial_keeps_the_pairs_before_the_damage_and_says_so()
    {
        var dump = Pairs(500).Build();
        dump[^300] ^= 0x55; // inside the last frames
        var e = await Assert.ThrowsAsync<DumpFormatException>(() => StoreMaintenance.ImportAsync(new MemoryStream(dump),
            TransferData.Options(Destination, StoreBackend.Sqlite), new ImportOptions { KeepPartial = true }, cancellationToken: Token));
        Assert.Contains("KeepPartial", e.Message, StringComparison.Ordinal);
        Assert.Contains(Destination, e.Message, StringComparison.Ordinal);

        using var store = KeyValueStore.Open(Destination);
        var kept = TransferData.ReadAll(store);
        Assert.InRange(kept.Count, 400, 499);
        Assert.Equal("k000000"u8.ToArray(), kept[0].Key);
        Assert.Contains($"{kept.Count:N0} pairs", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Cancellation_removes_the_new_store()
    {
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var progress = new SynchronousProgress(p => cancel.Cancel());
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => StoreMaintenance.ImportAsync(new MemoryStream(Pairs(5000).Build()),
            TransferData.Options(Destination, StoreBackend.Sqlite), progress: progress, cancellationToken: cancel.Token));
        Assert.Empty(TransferData.Entries(_directory.Path));
    }

    [Fact]
    public async Task Cancellation_with_KeepPartial_keeps_what_was_imported()
    {
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);
        var progress = new SynchronousProgress(p => cancel.Cancel());
        var e = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => StoreMaintenance.ImportAsync(new MemoryStream(Pairs(5000).Build()),
            TransferData.Options(Destination, StoreBackend.Sqlite), new ImportOptions { KeepPartial = true }, progress, cancel.Token));
        Assert.Contains("were kept", e.Message, StringComparison.Ordinal);
        using var store = KeyValueStore.Open(Destination);
        Assert.True(TransferData.ReadAll(store).Count < 5000);
    }

    [Fact]
    public async Task Import_reports_progress_with_the_announced_total()
    {
        var reports = new List<StoreProgress>();
        await StoreMaintenance.ImportAsync(new MemoryStream(Pairs(2000).Build()), TransferData.Options(Destination, StoreBackend.Sqlite),
            progress: new SynchronousProgress(reports.Add), cancellationToken: Token);
        Assert.NotEmpty(reports);
        Assert.All(reports, r => Assert.Equal(StorePhase.Importing, r.Phase));
        Assert.All(reports, r => Assert.Equal(2000, r.TotalPairs));
        Assert.Equal(2000, reports[^1].Pairs);
        Assert.Equal(reports[^1].TotalBytes, reports[^1].Bytes);
    }

    [Fact]
    public async Task Import_refuses_a_directory_that_holds_anything()
    {
        Directory.CreateDirectory(Destination);
        await File.WriteAllTextAsync(System.IO.Path.Combine(Destination, "notes.txt"), "mine", Token);
        var e = await Assert.ThrowsAsync<DataStoreException>(() =>
            StoreMaintenance.ImportAsync(new MemoryStream(Pairs(3).Build()), TransferData.Options(Destination, StoreBackend.Sqlite), cancellationToken: Token));
        Assert.Contains("not empty", e.Message, StringComparison.Ordinal);
        Assert.Equal(["notes.txt"], TransferData.Entries(Destination));
        Assert.Equal(["imported"], TransferData.Entries(_directory.Path));
    }

    [Fact]
    public async Task Import_fills_an_existing_empty_directory()
    {
        Directory.CreateDirectory(Destination);
        await StoreMaintenance.ImportAsync(new MemoryStream(Pairs(3).Build()), TransferData.Options(Destination, StoreBackend.FileSystem), cancellationToken: Token);
        using var store = KeyValueStore.Open(Destination);
        Assert.Equal(StoreBackend.FileSystem, store.Backend);
        Assert.Equal(3, TransferData.ReadAll(store).Count);
    }

    [Fact]
    public async Task A_destination_with_a_trailing_separator_is_built_beside_it_not_inside_it()
    {
        var path = Destination + System.IO.Path.DirectorySeparatorChar;
        await StoreMaintenance.ImportAsync(new MemoryStream(Pairs(3).Build()), TransferData.Options(path, StoreBackend.Sqlite), cancellationToken: Token);
        Assert.Equal(["imported"], TransferData.Entries(_directory.Path));
        using var store = KeyValueStore.Open(Destination);
        Assert.Equal(3, TransferData.ReadAll(store).Count);
    }

    [Fact]
    public async Task Import_reads_an_unseekable_stream()
    {
        var digest = await StoreMaintenance.ImportAsync(new UnseekableStream(Pairs(1500, 1 << 20).Build()), TransferData.Options(Destination, StoreBackend.Sqlite), cancellationToken: Token);
        Assert.Equal(1500, digest.Pairs);
    }

    [Fact]
    public async Task Import_records_the_requested_durability_in_the_new_store()
    {
        var options = TransferData.Options(Destination, StoreBackend.Sqlite);
        options.Durability = Durability.Durable;
        await StoreMaintenance.ImportAsync(new MemoryStream(Pairs(3).Build()), options, cancellationToken: Token);
        using var store = KeyValueStore.Open(Destination);
        Assert.Equal(Durability.Durable, store.Durability);
    }

    [Fact]
    public async Task Import_refuses_an_in_memory_destination() =>
        await Assert.ThrowsAsync<ArgumentException>(() => StoreMaintenance.ImportAsync(new MemoryStream(Pairs(3).Build()),
            new DataStoreOptions { Backend = StoreBackend.InMemory }, cancellationToken: Token));
}

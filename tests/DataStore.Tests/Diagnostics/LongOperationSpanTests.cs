using System.Diagnostics;
using DataStore.Tests.Conformance;
using DataStore.Tests.Transfer;

namespace DataStore.Tests.Diagnostics;

/// <summary>Each long operation runs in its documented <c>datastore.*</c> span, tagged with backend, path, counts and outcome.</summary>
public sealed class LongOperationSpanTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    private static List<(byte[] Key, byte[] Value)> Pairs => TransferData.EdgePairs(largeValue: false, ordinary: 20);

    public void Dispose() => _directory.Dispose();

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task Export_runs_in_a_datastore_export_span_with_the_pairs_and_bytes_written(StoreBackend backend)
    {
        var (span, digest) = await Traced(backend, "datastore.export", store => store.ExportAsync(Stream.Null, cancellationToken: Token));

        Assert.Equal(digest.Pairs, span.GetTagItem("datastore.pairs"));
        Assert.Equal(digest.Bytes, span.GetTagItem("datastore.bytes"));
    }

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task Import_runs_in_a_datastore_import_span_naming_the_new_store(StoreBackend backend)
    {
        TransferData.RequireAvailable(backend);
        var dump = new MemoryStream();
        using (var source = TransferData.Fill(_directory.Sub("source"), StoreBackend.Sqlite, Pairs))
        {
            await source.ExportAsync(dump, cancellationToken: Token);
        }

        dump.Position = 0;
        using var spans = new SpanRecorder(_directory.Path);

        var destination = _directory.Sub("imported");
        var digest = await StoreMaintenance.ImportAsync(dump, TransferData.Options(destination, backend), cancellationToken: Token);

        var span = spans.Single("datastore.import");
        SpanRecorder.AssertOk(span, backend, destination);
        Assert.Equal(digest.Pairs, span.GetTagItem("datastore.pairs"));
        Assert.Equal(digest.Bytes, span.GetTagItem("datastore.bytes"));
    }

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task Migrate_runs_in_a_datastore_migrate_span_naming_both_stores(StoreBackend backend)
    {
        var target = backend == StoreBackend.Sqlite ? StoreBackend.Lmdb : StoreBackend.Sqlite;
        TransferData.RequireAvailable(target);
        var destination = _directory.Sub("migrated");

        var (span, digest) = await Traced(backend, "datastore.migrate", store => store.MigrateAsync(TransferData.Options(destination, target), cancellationToken: Token));

        Assert.Equal(Path.GetFullPath(destination), span.GetTagItem("datastore.destination.path"));
        Assert.Equal(target.ToString(), span.GetTagItem("datastore.destination.backend"));
        Assert.Equal(digest.Pairs, span.GetTagItem("datastore.pairs"));
    }

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task Backup_runs_in_a_datastore_backup_span_with_the_copy_and_its_size(StoreBackend backend)
    {
        var (span, result) = await Traced(backend, "datastore.backup", store => store.BackupAsync(_directory.Sub("backup"), cancellationToken: Token));

        Assert.Equal(result.Path, span.GetTagItem("datastore.destination.path"));
        Assert.Equal(result.Bytes, span.GetTagItem("datastore.bytes"));
    }

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task Verify_runs_in_a_datastore_verify_span_with_the_pairs_read_and_the_problems_found(StoreBackend backend)
    {
        var (span, report) = await Traced(backend, "datastore.verify", store => store.VerifyAsync(cancellationToken: Token));

        Assert.Equal(report.Digest.Pairs, span.GetTagItem("datastore.pairs"));
        Assert.Equal(0L, span.GetTagItem("datastore.problems"));
    }

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public async Task Compact_runs_in_a_datastore_compact_span_with_the_size_before_and_after(StoreBackend backend)
    {
        var (span, _) = await Traced(backend, "datastore.compact", store => store.CompactAsync(cancellationToken: Token));

        Assert.True(span.GetTagItem("datastore.bytes_before") is long before && before > 0, "bytes_before");
        Assert.True(span.GetTagItem("datastore.bytes_after") is long after && after > 0, "bytes_after");
    }

    [Theory]
    [InlineData(StoreBackend.RocksDb)]
    [InlineData(StoreBackend.LiteDb)]
    public void A_hand_over_runs_in_a_datastore_handover_span_naming_the_old_owner_and_the_new_role(StoreBackend backend)
    {
        TransferData.RequireAvailable(backend);
        var path = _directory.Sub("shared");
        var owner = KeyValueStore.Open(TransferData.Options(path, backend));
        using var client = KeyValueStore.Open(TransferData.Options(path, backend));
        client.Put("a"u8, "1"u8);
        using var spans = new SpanRecorder(_directory.Path);

        owner.Dispose();
        client.Put("b"u8, "2"u8);

        var span = spans.Single("datastore.handover");
        SpanRecorder.AssertOk(span, backend, path);
        Assert.Equal(Environment.ProcessId, span.GetTagItem("datastore.previous_owner.pid"));
        Assert.Equal("owner", span.GetTagItem("datastore.role"));
    }

    [Fact]
    public async Task A_failed_operation_sets_the_error_status_and_outcome()
    {
        using var store = Filled(StoreBackend.Sqlite);
        using var spans = new SpanRecorder(_directory.Path);

        await Assert.ThrowsAsync<ArgumentException>(() => store.ExportAsync(new MemoryStream([], writable: false), cancellationToken: Token));

        var span = spans.Single("datastore.export");
        Assert.Equal(ActivityStatusCode.Error, span.Status);
        Assert.Equal("error", span.GetTagItem("datastore.outcome"));
        Assert.Equal(typeof(ArgumentException).FullName, span.GetTagItem("error.type"));
    }

    [Fact]
    public async Task A_cancelled_operation_ends_its_span_as_cancelled()
    {
        using var store = Filled(StoreBackend.Sqlite);
        using var spans = new SpanRecorder(_directory.Path);
        using var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() =>
            store.VerifyAsync(new SynchronousProgress<StoreProgress>(_ => cancel.Cancel()), cancel.Token));

        var span = spans.Single("datastore.verify");
        Assert.Equal(ActivityStatusCode.Error, span.Status);
        Assert.Equal("cancelled", span.GetTagItem("datastore.outcome"));
    }

    // Runs the operation on a filled store of the backend; returns its one span, checked to name the store and end well.
    private async Task<(Activity Span, T Result)> Traced<T>(StoreBackend backend, string name, Func<IKeyValueStore, Task<T>> operation)
    {
        using var store = Filled(backend);
        using var spans = new SpanRecorder(_directory.Path);
        var result = await operation(store);
        var span = spans.Single(name);
        SpanRecorder.AssertOk(span, backend, store.Path);
        return (span, result);
    }

    private IKeyValueStore Filled(StoreBackend backend)
    {
        TransferData.RequireAvailable(backend);
        return TransferData.Fill(_directory.Sub("store"), backend, Pairs);
    }
}

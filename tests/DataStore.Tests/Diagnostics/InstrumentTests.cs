using System.Diagnostics.Metrics;
using DataStore.Tests.Conformance;
using DataStore.Tests.Transfer;
using Microsoft.Extensions.DependencyInjection;

namespace DataStore.Tests.Diagnostics;

/// <summary>A MeterListener sees every documented instrument of the DataStore meter, and every long operation on it with its outcome.</summary>
public sealed class InstrumentTests : IDisposable
{
    /// <summary>Every instrument the README documents, by name.</summary>
    private static readonly string[] Documented = ["datastore.operation.duration", "datastore.operations", "datastore.size"];

    private readonly TemporaryDirectory _directory = new();
    private readonly List<Measured> _measured = [];

    private static CancellationToken Token => TestContext.Current.CancellationToken;

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_MeterListener_sees_each_documented_instrument_and_each_long_operation_with_its_outcome()
    {
        using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var factory = services.GetRequiredService<IMeterFactory>();
        var published = new SortedSet<string>(StringComparer.Ordinal);
        using var listener = Listen(factory, published);
        var path = _directory.Sub("metered");
        var store = KeyValueStore.Open(TransferData.Options(path, StoreBackend.Lmdb), null, factory);
        store.Write(new WriteBatch().Put("a"u8, "1"u8).Put("b"u8, "2"u8));

        var dump = new MemoryStream();
        await store.ExportAsync(dump, cancellationToken: Token);
        await store.VerifyAsync(cancellationToken: Token);
        await store.CompactAsync(cancellationToken: Token);
        await store.BackupAsync(_directory.Sub("backup"), cancellationToken: Token);
        await store.MigrateAsync(TransferData.Options(_directory.Sub("migrated"), StoreBackend.Sqlite), cancellationToken: Token);
        dump.Position = 0;
        await StoreMaintenance.ImportAsync(dump, TransferData.Options(_directory.Sub("imported"), StoreBackend.FileSystem), cancellationToken: Token);
        await Assert.ThrowsAsync<ArgumentException>(() => store.ExportAsync(new MemoryStream([], writable: false), cancellationToken: Token));
        using (var cancel = CancellationTokenSource.CreateLinkedTokenSource(Token))
        {
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => store.VerifyAsync(new SynchronousProgress<StoreProgress>(_ => cancel.Cancel()), cancel.Token));
        }

        listener.RecordObservableInstruments();
        store.Dispose();
        var sizesBeforeDispose = Sizes(path);
        listener.RecordObservableInstruments();

        lock (_measured)
        {
            Assert.Equal(Documented, published);
            foreach (var operation in new[] { "export", "verify", "compact", "backup", "migrate" })
            {
                Assert.Contains(new Measured("datastore.operations", "Lmdb", operation, "ok", 1, null), _measured);
                Assert.Contains(_measured, m => m is { Instrument: "datastore.operation.duration", Backend: "Lmdb", Outcome: "ok", Value: > 0 } && m.Operation == operation);
            }

            // An import has no store yet to take a meter from: it counts on the process-wide DataStore meter.
            Assert.Contains(new Measured("datastore.operations", "FileSystem", "import", "ok", 1, null), _measured);
            Assert.Contains(new Measured("datastore.operations", "Lmdb", "export", "error", 1, null), _measured);
            Assert.Contains(new Measured("datastore.operations", "Lmdb", "verify", "cancelled", 1, null), _measured);
        }

        var size = Assert.Single(sizesBeforeDispose);
        Assert.True(size.Value > 0, "the gauge reports the store's size");
        Assert.Equal("Lmdb", size.Backend);
        Assert.Single(Sizes(path)); // the disposed store is not reported again
    }

    [Fact]
    public void Without_a_collector_the_size_gauge_forgets_closed_stores_as_new_ones_open()
    {
        var sizes = new DataStore.Diagnostics.StoreSizes();
        for (var i = 0; i < 24; i++)
        {
            using var closed = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub($"closed-{i}") });
            sizes.Add(AsMeasured(closed));
        }

        using var open = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("open") });
        sizes.Add(AsMeasured(open));

        Assert.InRange(sizes.Count, 1, 16);
        var measured = Assert.Single(sizes.Observe());
        Assert.Contains(new KeyValuePair<string, object?>("path", open.Path), measured.Tags.ToArray());
    }

    // Every store DataStore opens is one the size gauge can measure.
    private static DataStore.Diagnostics.IMeasuredStore AsMeasured(IKeyValueStore store) =>
        store as DataStore.Diagnostics.IMeasuredStore ?? throw new InvalidOperationException($"a {store.Backend} store the size gauge cannot measure");

    private List<Measured> Sizes(string path)
    {
        lock (_measured)
        {
            return [.. _measured.Where(m => m.Instrument == "datastore.size" && m.Path == path)];
        }
    }

    // This factory's meter, and the process-wide one (for import); other tests' stores record on the latter too.
    private MeterListener Listen(IMeterFactory factory, SortedSet<string> published)
    {
        var listener = new MeterListener
        {
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == "DataStore" && (ReferenceEquals(instrument.Meter.Scope, factory) || instrument.Meter.Scope is null))
                {
                    if (instrument.Meter.Scope is not null)
                    {
                        lock (published)
                        {
                            published.Add(instrument.Name);
                        }
                    }

                    l.EnableMeasurementEvents(instrument);
                }
            },
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Add(instrument, value, tags));
        listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Add(instrument, value, tags));
        listener.Start();
        return listener;
    }

    private void Add(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var map = new Dictionary<string, object?>();
        foreach (var tag in tags)
        {
            map[tag.Key] = tag.Value;
        }

        var measured = new Measured(instrument.Name, (string)map["backend"]!, map.GetValueOrDefault("operation") as string, map.GetValueOrDefault("outcome") as string,
            value, map.GetValueOrDefault("path") as string);
        lock (_measured)
        {
            _measured.Add(measured);
        }
    }

    private sealed record Measured(string Instrument, string Backend, string? Operation, string? Outcome, double Value, string? Path);
}

using System.Diagnostics;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace DataStore.Tests.Diagnostics;

/// <summary>The documented instruments: the DataStore meter (from the host's IMeterFactory), the DataStore ActivitySource and the log event ids.</summary>
public sealed class TelemetryTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task A_MeterListener_sees_counts_and_durations_tagged_backend_operation_and_outcome()
    {
        using var host = await StartHost();
        var factory = host.Services.GetRequiredService<IMeterFactory>();
        var seen = new List<(string Instrument, string Backend, string Operation, string Outcome, double Value)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            // Only this host's meter: other tests running in parallel record on the process-wide one.
            if (instrument.Meter.Name == "DataStore" && ReferenceEquals(instrument.Meter.Scope, factory))
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Add(instrument, value, tags));
        listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Add(instrument, value, tags));
        listener.Start();

        var store = host.Services.GetRequiredService<IKeyValueStore>();
        store.Put("k"u8, "v"u8);
        Assert.NotNull(store.Get("k"u8));
        Assert.True(store.HaveKey("k"u8));
        Assert.False(store.TryWrite(new WriteBatch().RequireAbsent("k"u8).Put("k"u8, "w"u8), out _));
        using (store.ScanPrefix("k"u8))
        {
        }

        lock (seen)
        {
            foreach (var operation in new[] { "put", "get", "havekey", "scan" })
            {
                Assert.Contains(("datastore.operations", "Sqlite", operation, "ok", 1.0), seen.Select(Count));
                Assert.Contains(seen, m => m.Instrument == "datastore.operation.duration" && m.Operation == operation && m.Value is > 0 and < 10);
            }

            Assert.Contains(("datastore.operations", "Sqlite", "write", "precondition_failed", 1.0), seen.Select(Count));
        }

        void Add(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
        {
            var map = new Dictionary<string, object?>();
            foreach (var tag in tags)
            {
                map[tag.Key] = tag.Value;
            }

            lock (seen)
            {
                seen.Add((instrument.Name, (string)map["backend"]!, (string)map["operation"]!, (string)map["outcome"]!, value));
            }
        }

        static (string, string, string, string, double) Count((string Instrument, string Backend, string Operation, string Outcome, double Value) m) =>
            (m.Instrument, m.Backend, m.Operation, m.Outcome, m.Instrument == "datastore.operations" ? m.Value : -1);
    }

    [Fact]
    public void An_ActivityListener_sees_open_write_and_compact_spans_tagged_with_the_store()
    {
        var path = _directory.Sub("traced");
        var stopped = new List<Activity>();
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name == "DataStore",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
            ActivityStopped = activity =>
            {
                if (activity.GetTagItem("datastore.path") as string is { } tagged && tagged.StartsWith(_directory.Path, StringComparison.Ordinal))
                {
                    lock (stopped)
                    {
                        stopped.Add(activity);
                    }
                }
            },
        };
        ActivitySource.AddActivityListener(listener);

        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb }))
        {
            store.Write(new WriteBatch().Put("a"u8, "1"u8));
            store.Compact();
        }

        Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Sqlite }));

        lock (stopped)
        {
            Assert.Equal(["datastore.open", "datastore.write", "datastore.compact", "datastore.open"], stopped.Select(a => a.OperationName));
            Assert.All(stopped.Take(3), a => Assert.Equal("Lmdb", a.GetTagItem("datastore.backend")));
            Assert.Equal(ActivityStatusCode.Error, stopped[3].Status);
            Assert.Contains("not a Sqlite store", stopped[3].StatusDescription, StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Log_messages_carry_their_documented_event_ids()
    {
        var events = new List<(EventId Id, LogLevel Level)>();
        using var factory = LoggerFactory.Create(logging => logging.SetMinimumLevel(LogLevel.Trace).AddProvider(new CapturingProvider(events)));

        KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("logged") }, factory).Dispose();

        Assert.Contains((new EventId(1, "StoreOpened"), LogLevel.Debug), events);
    }

    [Fact]
    public async Task A_hosted_store_that_cannot_open_logs_StoreOpenFailed_also_when_a_hosted_service_opened_it()
    {
        var path = _directory.Sub("damaged");
        KeyValueStore.Open(new DataStoreOptions { Path = path }).Dispose();
        File.WriteAllText(Path.Combine(path, "datastore.json"), "{ damaged");
        var events = new List<(EventId Id, LogLevel Level)>();
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Logging.AddProvider(new CapturingProvider(events));
        builder.Configuration.AddInMemoryCollection([new("DataStore:Path", path)]);
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        builder.Services.AddHostedService<StoreService>(); // opens the store while the host builds its hosted services
        using var host = builder.Build();

        await Assert.ThrowsAnyAsync<DataStoreException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        Assert.Contains((new EventId(2, "StoreOpenFailed"), LogLevel.Error), events);
    }

    public void Dispose() => _directory.Dispose();

    private async Task<IHost> StartHost()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection([new("DataStore:Path", _directory.Sub("metered"))]);
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        var host = builder.Build();
        await host.StartAsync(TestContext.Current.CancellationToken);
        return host;
    }

    private sealed class StoreService(IKeyValueStore store) : BackgroundService
    {
        protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.FromResult(store);
    }

    private sealed class CapturingProvider(List<(EventId Id, LogLevel Level)> events) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new Logger(events);

        public void Dispose()
        {
        }

        private sealed class Logger(List<(EventId Id, LogLevel Level)> events) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state)
                where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
            {
                lock (events)
                {
                    events.Add((eventId, logLevel));
                }
            }
        }
    }
}

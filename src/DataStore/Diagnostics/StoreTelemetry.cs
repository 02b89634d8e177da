using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;

namespace DataStore.Diagnostics;

/// <summary>
/// DataStore's instruments on one <c>DataStore</c> meter: an operation counter and a duration histogram, each tagged
/// <c>backend</c>, <c>operation</c> and <c>outcome</c>, and the <c>datastore.size</c> gauge (<see cref="StoreSizes"/>). A
/// store opened through dependency injection uses a meter from the host's <see cref="IMeterFactory"/>; one opened
/// directly uses a process-wide meter of the same name.
/// </summary>
/// <remarks>When no listener is enabled, an operation costs two flag reads: no timestamp, no tags.</remarks>
internal sealed class StoreTelemetry
{
    public const string MeterName = "DataStore";
    public const string OperationsName = "datastore.operations";
    public const string DurationName = "datastore.operation.duration";
    public const string SizeName = "datastore.size";

    private static readonly ConditionalWeakTable<Meter, StoreTelemetry> ByMeter = [];
    private static readonly string[] OperationNames = Enum.GetNames<StoreOperation>().Select(name => name.ToLowerInvariant()).ToArray();
    private static readonly string[] BackendNames = Enum.GetNames<StoreBackend>();
    private static readonly string[] OutcomeNames = ["ok", "precondition_failed", "error", "cancelled"];

    private readonly Counter<long> _operations;
    private readonly Histogram<double> _duration;
    private readonly StoreSizes _sizes = new();
    private readonly bool _traced;

    private StoreTelemetry(Meter meter, bool traced = true)
    {
        _traced = traced;
        _operations = meter.CreateCounter<long>(OperationsName, "{operation}", "Store operations ended (point reads and writes, scans opened, batches, and the long operations: compact, export, import, migrate, backup, verify, hand-over).");
        _duration = meter.CreateHistogram<double>(DurationName, "s", "How long each store operation took.",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.000_001, 0.000_01, 0.000_1, 0.001, 0.01, 0.1, 1, 10, 100] });
        meter.CreateObservableGauge(SizeName, _sizes.Observe, "By", "The size of each open store's files (sampled at most every few seconds; not for FileSystem stores).");
    }

    /// <summary>The process-wide instruments, for stores opened without an <see cref="IMeterFactory"/>.</summary>
    public static StoreTelemetry Shared { get; } = new(new Meter(MeterName, typeof(StoreTelemetry).Assembly.GetName().Version?.ToString()));

    /// <summary>Instruments on a meter of another name, and no spans, for an engine whose calls its shared store already counts and traces (ADR 0015: each process counts its own calls).</summary>
    public static StoreTelemetry Uncounted { get; } = new(new Meter(MeterName + ".Engine"), traced: false);

    /// <summary>The instruments on <paramref name="meterFactory"/>'s <c>DataStore</c> meter, or <see cref="Shared"/> without a factory.</summary>
    public static StoreTelemetry For(IMeterFactory? meterFactory) =>
        meterFactory is null ? Shared : ByMeter.GetValue(meterFactory.Create(new MeterOptions(MeterName)), meter => new StoreTelemetry(meter));

    /// <summary>Makes this the telemetry of <paramref name="store"/>, whose size the gauge then reports until it is disposed.</summary>
    public void Attach(KeyValueStoreBase store)
    {
        store.Telemetry = this;
        _sizes.Add(store);
    }

    /// <summary>Starts the span <c>datastore.{name}</c>, or returns null when nobody listens or the shared store above this engine traces the call.</summary>
    public Activity? StartActivity(string name, StoreBackend backend, string path) => _traced ? StoreActivities.Start(name, backend, path) : null;

    /// <summary>A timestamp to pass to <c>Record</c>, or 0 when no listener wants durations.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long Start() => _duration.Enabled ? Stopwatch.GetTimestamp() : 0;

    /// <summary>Counts one completed operation and records its duration since <paramref name="started"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(StoreOperation operation, StoreBackend backend, long started, bool succeeded = true) =>
        Record(operation, backend, started, succeeded ? StoreOutcome.Ok : StoreOutcome.PreconditionFailed);

    /// <summary>Counts one operation that ended with <paramref name="outcome"/> and records its duration since <paramref name="started"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(StoreOperation operation, StoreBackend backend, long started, StoreOutcome outcome)
    {
        if (_operations.Enabled || started != 0)
        {
            RecordSlow(operation, backend, started, outcome);
        }
    }

    /// <summary>The <c>operation</c> tag's value for <paramref name="operation"/> (<c>datastore.{it}</c> names its span).</summary>
    public static string NameOf(StoreOperation operation) => OperationNames[(int)operation];

    /// <summary>The <c>outcome</c> tag's value for <paramref name="outcome"/>.</summary>
    public static string NameOf(StoreOutcome outcome) => OutcomeNames[(int)outcome];

    private void RecordSlow(StoreOperation operation, StoreBackend backend, long started, StoreOutcome outcome)
    {
        var tags = new TagList
        {
            { "backend", BackendNames[(int)backend] },
            { "operation", OperationNames[(int)operation] },
            { "outcome", OutcomeNames[(int)outcome] },
        };
        _operations.Add(1, tags);
        if (started != 0)
        {
            _duration.Record(Stopwatch.GetElapsedTime(started).TotalSeconds, tags);
        }
    }
}

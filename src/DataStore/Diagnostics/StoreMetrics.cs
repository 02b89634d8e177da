using System.Diagnostics.Metrics;

namespace DataStore.Diagnostics;

/// <summary>
/// DataStore's counters, published on the <c>DataStore</c> meter (System.Diagnostics.Metrics), for example to
/// <c>dotnet-counters monitor --counters DataStore</c>. Each measurement carries a <c>backend</c> tag.
/// </summary>
internal static class StoreMetrics
{
    public const string MeterName = "DataStore";

    private static readonly Meter Meter = new(MeterName);

    /// <summary>Point reads: Get and HaveKey.</summary>
    public static readonly Counter<long> Reads = Meter.CreateCounter<long>("datastore.reads", "{operation}", "Point reads (Get, HaveKey).");

    /// <summary>Committed writes: Put, Delete, DeletePrefix, DeleteRange and batches.</summary>
    public static readonly Counter<long> Writes = Meter.CreateCounter<long>("datastore.writes", "{commit}", "Committed writes (each batch counts once).");

    /// <summary>Batches refused because a precondition failed.</summary>
    public static readonly Counter<long> PreconditionFailures = Meter.CreateCounter<long>("datastore.precondition_failures", "{batch}", "Batches refused by a failed precondition.");

    /// <summary>Scans opened.</summary>
    public static readonly Counter<long> Scans = Meter.CreateCounter<long>("datastore.scans", "{scan}", "Cursors opened.");

    public static void Count(Counter<long> counter, StoreBackend backend)
    {
        if (counter.Enabled)
        {
            counter.Add(1, new KeyValuePair<string, object?>("backend", backend.ToString()));
        }
    }
}

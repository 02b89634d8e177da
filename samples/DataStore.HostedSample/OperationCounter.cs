using System.Diagnostics.Metrics;

namespace DataStore.HostedSample;

/// <summary>Listens to the host's DataStore meter and sums <c>datastore.operations</c>, as a metrics exporter would.</summary>
internal sealed class OperationCounter : IDisposable
{
    private readonly MeterListener _listener = new();
    private long _total;

    public OperationCounter(IMeterFactory meters)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "DataStore" && ReferenceEquals(instrument.Meter.Scope, meters) && instrument.Name == "datastore.operations")
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref _total, value));
        _listener.Start();
    }

    public long Total => Interlocked.Read(ref _total);

    public void Dispose() => _listener.Dispose();
}

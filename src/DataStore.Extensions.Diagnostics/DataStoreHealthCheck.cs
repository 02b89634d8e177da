using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace DataStore.Extensions.Diagnostics;

/// <summary>Healthy when the store answers a read (a presence test and the first key of a keys-only scan); unhealthy, with the error, when it cannot.</summary>
/// <remarks>The check reads; it never writes, so it is safe on read-only catalogue stores and beside maintenance.</remarks>
public sealed class DataStoreHealthCheck(IKeyValueStore store) : IHealthCheck
{
    private static readonly byte[] Probe = "datastore-health-probe"u8.ToArray();

    /// <inheritdoc />
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var data = new Dictionary<string, object> { ["backend"] = store.Backend.ToString(), ["path"] = store.Path };
        try
        {
            store.HaveKey(Probe);
            using (var cursor = store.ScanPrefix([], keysOnly: true))
            {
                cursor.MoveNext();
            }

            return Task.FromResult(HealthCheckResult.Healthy($"The {store.Backend} store at '{store.Path}' answers reads.", data));
        }
        catch (Exception e) when (e is DataStoreException or ObjectDisposedException or IOException or UnauthorizedAccessException)
        {
            return Task.FromResult(new HealthCheckResult(context.Registration.FailureStatus, e.Message, e, data));
        }
    }
}

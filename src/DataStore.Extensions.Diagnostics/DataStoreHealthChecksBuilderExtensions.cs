using DataStore;
using DataStore.Extensions.Diagnostics;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adds DataStore health checks to <c>services.AddHealthChecks()</c>.</summary>
public static class DataStoreHealthChecksBuilderExtensions
{
    /// <summary>
    /// Checks the store registered with <c>AddDataStore</c>, or with <c>AddKeyedDataStore(storeName, ...)</c> when
    /// <paramref name="storeName"/> is given; the check is named <c>datastore</c> or <c>datastore-{storeName}</c>.
    /// </summary>
    public static IHealthChecksBuilder AddDataStore(this IHealthChecksBuilder builder, string? storeName = null, HealthStatus failureStatus = HealthStatus.Unhealthy, IEnumerable<string>? tags = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var name = storeName is null ? "datastore" : $"datastore-{storeName}";
        return builder.Add(new HealthCheckRegistration(
            name,
            provider => new DataStoreHealthCheck(storeName is null
                ? provider.GetRequiredService<IKeyValueStore>()
                : provider.GetRequiredKeyedService<IKeyValueStore>(storeName)),
            failureStatus,
            tags));
    }
}

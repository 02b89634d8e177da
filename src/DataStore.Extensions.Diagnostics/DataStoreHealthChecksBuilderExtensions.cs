using DataStore;
using DataStore.Extensions.Diagnostics;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Adds DataStore health checks to <c>services.AddHealthChecks()</c>.</summary>
public static class DataStoreHealthChecksBuilderExtensions
{
    /// <summary>
    /// Checks the store registered with <c>AddDataStore</c>, or with <c>AddKeyedDataStore(storeName, ...)</c> when
    /// <paramref name="storeName"/> is given; the check is named <c>datastore</c> or <c>datastore-{storeName}</c>. A store that
    /// cannot be opened when the check runs (a bad setting, held by another process, damaged) is reported with its error.
    /// </summary>
    public static IHealthChecksBuilder AddDataStore(this IHealthChecksBuilder builder, string? storeName = null, HealthStatus failureStatus = HealthStatus.Unhealthy, IEnumerable<string>? tags = null)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var name = storeName is null ? "datastore" : $"datastore-{storeName}";
        return builder.Add(new HealthCheckRegistration(
            name,
            provider =>
            {
                // Resolving opens the store when nothing has yet (an app without a host): a store that cannot be opened is
                // reported by the check, never thrown out of HealthCheckService.CheckHealthAsync.
                try
                {
                    return new DataStoreHealthCheck(storeName is null
                        ? provider.GetRequiredService<IKeyValueStore>()
                        : provider.GetRequiredKeyedService<IKeyValueStore>(storeName));
                }
                catch (Exception e) when (e is DataStoreException or OptionsValidationException or AggregateException)
                {
                    return new UnopenedStoreHealthCheck(storeName is null ? "registered with AddDataStore" : $"'{storeName}'", e);
                }
            },
            failureStatus,
            tags));
    }
}

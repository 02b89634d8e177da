using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace DataStore.Extensions.Diagnostics;

/// <summary>The check of a store that could not be opened when the check ran: reports the registration's failure status with why.</summary>
internal sealed class UnopenedStoreHealthCheck(string storeName, Exception error) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(new HealthCheckResult(
            context.Registration.FailureStatus, $"The store {storeName} could not be opened: {error.Message}", error));
}

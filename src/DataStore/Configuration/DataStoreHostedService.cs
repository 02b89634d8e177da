using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace DataStore.Configuration;

/// <summary>
/// Opens every registered store while the host starts (before any hosted service's <c>StartAsync</c>), so a store that
/// cannot be opened fails the start with its own <see cref="DataStoreException"/> instead of failing later inside a
/// resolution. (A hosted service that takes a store in its constructor opens it earlier, when the host resolves the
/// hosted services; <see cref="DataStoreHandle"/> validates every store's options before any opens, either way.)
/// </summary>
/// <remarks>A store that cannot be opened is logged (event 2, <c>StoreOpenFailed</c>) by <see cref="DataStoreHandle"/>, whoever opens it.</remarks>
internal sealed class DataStoreHostedService(IEnumerable<DataStoreRegistration> registrations, IServiceProvider provider)
    : IHostedLifecycleService
{
    public Task StartingAsync(CancellationToken cancellationToken)
    {
        var names = registrations.Select(registration => registration.Name).Distinct().ToList();
        foreach (var name in names)
        {
            cancellationToken.ThrowIfCancellationRequested();
            _ = provider.GetRequiredKeyedService<DataStoreHandle>(name).Store;
        }

        return Task.CompletedTask;
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}

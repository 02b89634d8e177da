using DataStore.Diagnostics;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Configuration;

/// <summary>
/// Opens a registered store while the host starts (before any hosted service's <c>StartAsync</c>), so a store that cannot
/// be opened fails the start with its own <see cref="DataStoreException"/> instead of failing later inside a resolution.
/// </summary>
internal sealed class DataStoreHostedService(DataStoreHandle handle, ILoggerFactory? loggerFactory = null) : IHostedLifecycleService
{
    public Task StartingAsync(CancellationToken cancellationToken)
    {
        var logger = (loggerFactory ?? NullLoggerFactory.Instance).CreateLogger("DataStore");
        try
        {
            _ = handle.Store;
        }
        catch (DataStoreException e)
        {
            StoreLog.OpenFailed(logger, e, e.StorePath);
            throw;
        }

        return Task.CompletedTask;
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}

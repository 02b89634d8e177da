using DataStore.Utf8;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;

namespace DataStore.HostedSample;

/// <summary>Fills the catalogue, records which mods are installed in the state store, prints what it sees and stops the app.</summary>
internal sealed class ModCatalogWorker(
    [FromKeyedServices("state")] IKeyValueStore state,
    [FromKeyedServices("catalog")] IKeyValueStore catalog,
    HealthCheckService health,
    OperationCounter operations,
    IHostApplicationLifetime lifetime) : BackgroundService
{
    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        catalog.Write(new WriteBatch()
            .Put("skyrim/skyui"u8, "5.2"u8)
            .Put("skyrim/ussep"u8, "4.2.9"u8)
            .Put("skyrim/racemenu"u8, "0.4.19"u8));
        state.Put("installed/skyrim/skyui", "5.2");

        Console.WriteLine($"stores: state at {state.Path}, catalog at {catalog.Path}");
        Console.WriteLine($"catalog: {catalog.Backend}, {catalog.EnumeratePrefix("skyrim/").Count()} mods");
        foreach (var (key, version) in state.EnumeratePrefix("installed/"))
        {
            Console.WriteLine($"state: {state.Backend}, {key} = {version}");
        }

        var report = await health.CheckHealthAsync(stoppingToken);
        Console.WriteLine($"health: {report.Status} ({string.Join(", ", report.Entries.Select(e => $"{e.Key} {e.Value.Status}"))})");
        Console.WriteLine($"metrics: {operations.Total} datastore.operations");
        lifetime.StopApplication();
    }
}

using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace DataStore.Tests.Diagnostics;

/// <summary>services.AddHealthChecks().AddDataStore(...) reports healthy while the store answers reads and unhealthy, with the store's error, once it cannot.</summary>
public sealed class HealthCheckTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task The_health_check_follows_whether_each_keyed_store_can_be_read()
    {
        var services = new ServiceCollection()
            .AddKeyedDataStore("state", o => o.Path = _directory.Sub("state"))
            .AddKeyedDataStore("catalog", o => { o.Path = _directory.Sub("catalog"); o.Backend = StoreBackend.FileSystem; });
        services.AddLogging().AddHealthChecks().AddDataStore("state").AddDataStore("catalog");
        await using var provider = services.BuildServiceProvider();
        var health = provider.GetRequiredService<HealthCheckService>();

        var report = await health.CheckHealthAsync(TestContext.Current.CancellationToken);
        Assert.Equal(HealthStatus.Healthy, report.Status);
        Assert.Equal("FileSystem", report.Entries["datastore-catalog"].Data["backend"]);

        provider.GetRequiredKeyedService<IKeyValueStore>("catalog").Dispose();
        report = await health.CheckHealthAsync(TestContext.Current.CancellationToken);
        Assert.Equal(HealthStatus.Unhealthy, report.Status);
        Assert.Equal(HealthStatus.Healthy, report.Entries["datastore-state"].Status);
        var failed = report.Entries["datastore-catalog"];
        Assert.Equal(HealthStatus.Unhealthy, failed.Status);
        Assert.IsType<ObjectDisposedException>(failed.Exception);
        Assert.Contains(_directory.Sub("catalog"), failed.Description, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_store_that_cannot_be_opened_is_reported_unhealthy_and_healthy_once_it_opens()
    {
        // An app without a host: the check's resolution is the store's first open. Damaged first, repaired later.
        var path = _directory.Sub("state");
        KeyValueStore.Open(new DataStoreOptions { Path = path }).Dispose();
        var manifest = Path.Combine(path, "datastore.json");
        var intact = File.ReadAllText(manifest);
        File.WriteAllText(manifest, "{ damaged");
        var services = new ServiceCollection().AddKeyedDataStore("state", o => o.Path = path);
        services.AddLogging().AddHealthChecks().AddDataStore("state");
        await using var provider = services.BuildServiceProvider();
        var health = provider.GetRequiredService<HealthCheckService>();

        var failed = (await health.CheckHealthAsync(TestContext.Current.CancellationToken)).Entries["datastore-state"];
        Assert.Equal(HealthStatus.Unhealthy, failed.Status);
        Assert.IsAssignableFrom<DataStoreException>(failed.Exception);
        Assert.Contains("datastore.json", failed.Description, StringComparison.Ordinal);

        File.WriteAllText(manifest, intact);
        Assert.Equal(HealthStatus.Healthy, (await health.CheckHealthAsync(TestContext.Current.CancellationToken)).Status);
        Assert.Equal(path, provider.GetRequiredKeyedService<IKeyValueStore>("state").Path);
    }

    public void Dispose() => _directory.Dispose();
}

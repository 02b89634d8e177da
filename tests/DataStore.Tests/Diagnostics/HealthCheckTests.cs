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

    public void Dispose() => _directory.Dispose();
}

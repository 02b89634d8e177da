using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace DataStore.Tests.Hosting;

/// <summary>What a Generic Host app's configuration mistakes look like at host start: every one reported at once, nothing created.</summary>
public sealed class HostedOptionsTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private string? _stray;

    [Fact]
    public async Task Unreadable_values_are_reported_by_ValidateOnStart_with_every_other_bad_setting()
    {
        var list = $"{_directory.Sub("a")}{Path.PathSeparator}{_directory.Sub("b")}";
        var builder = NewBuilder(new() { ["DataStore:Path"] = list, ["DataStore:Backend"] = "Sqlit", ["DataStore:Timeout"] = "thirty", ["DataStore:Timout"] = "5" });
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        using var host = builder.Build();

        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        Assert.Equal(4, error.Failures.Count());
        Assert.Contains(error.Failures, f => f.StartsWith("The DataStore setting DataStore:Backend = 'Sqlit' cannot be read: expected one of Sqlite,", StringComparison.Ordinal));
        Assert.Contains(error.Failures, f => f.StartsWith("The DataStore setting DataStore:Timeout = 'thirty' cannot be read", StringComparison.Ordinal));
        Assert.Contains(error.Failures, f => f.Contains("'Timout', which DataStore does not know", StringComparison.Ordinal));
        Assert.Contains(error.Failures, f => f.Contains("looks like a list of paths", StringComparison.Ordinal));
        Assert.All(error.Failures, f => Assert.EndsWith("of the DataStore, from configuration section 'DataStore')", f, StringComparison.Ordinal));
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    [Fact]
    public async Task Bad_settings_of_several_stores_are_all_reported_even_when_a_hosted_service_takes_the_stores()
    {
        var builder = NewBuilder(new()
        {
            ["Stores:State:Path"] = _directory.Sub("state"),
            ["Stores:State:Durability"] = "Durabel",
            ["Stores:Catalog:Path"] = _directory.Sub("catalog"),
            ["Stores:Catalog:Backend"] = "Lmbd",
            ["Stores:Catalog:SyncInterval"] = "0",
        });
        builder.Services.AddKeyedDataStore("state", builder.Configuration.GetSection("Stores:State"));
        builder.Services.AddKeyedDataStore("catalog", builder.Configuration.GetSection("Stores:Catalog"));
        builder.Services.AddHostedService<StoresService>(); // resolves both stores while the host builds its hosted services
        using var host = builder.Build();

        var error = await Assert.ThrowsAsync<AggregateException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        var failures = error.InnerExceptions.Cast<OptionsValidationException>().SelectMany(e => e.Failures).ToList();
        Assert.Equal(3, failures.Count);
        Assert.Contains(failures, f => f.Contains("Stores:State:Durability = 'Durabel'", StringComparison.Ordinal) && f.Contains("of the DataStore 'state'", StringComparison.Ordinal));
        Assert.Contains(failures, f => f.Contains("Stores:Catalog:Backend = 'Lmbd'", StringComparison.Ordinal) && f.Contains("of the DataStore 'catalog'", StringComparison.Ordinal));
        Assert.Contains(failures, f => f.Contains("setting SyncInterval of the DataStore 'catalog'", StringComparison.Ordinal));
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    [Fact]
    public async Task A_missing_section_is_named_instead_of_an_empty_Path()
    {
        var builder = NewBuilder(new() { ["Stores:State:Path"] = _directory.Sub("state") });
        builder.Services.AddKeyedDataStore("state", builder.Configuration.GetSection("Stores:State"));
        builder.Services.AddKeyedDataStore("catalog", builder.Configuration.GetSection("Stores:Catalogue"));
        using var host = builder.Build();

        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        var failure = Assert.Single(error.Failures);
        Assert.Contains("section 'Stores:Catalogue' is missing or empty, so the store has no Path", failure, StringComparison.Ordinal);
        Assert.Contains("content root", failure, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    [Fact]
    public async Task A_relative_Path_is_the_hosts_content_root_not_the_working_directory()
    {
        var root = Directory.CreateDirectory(_directory.Sub("app")).FullName;
        var relative = $"state-{Guid.NewGuid():N}";
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true, ContentRootPath = root });
        builder.Configuration.AddInMemoryCollection([new("DataStore:Path", relative)]);
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        _stray = Path.GetFullPath(relative);
        using var host = builder.Build();
        await host.StartAsync(TestContext.Current.CancellationToken);

        var expected = Path.Combine(root, relative);
        Assert.Equal(expected, host.Services.GetRequiredService<IKeyValueStore>().Path);
        Assert.Equal(expected, host.Services.GetRequiredService<IOptions<DataStoreOptions>>().Value.Path);
        Assert.True(File.Exists(Path.Combine(expected, "datastore.json")));
        Assert.False(Directory.Exists(_stray), $"a store was created in the working directory {Environment.CurrentDirectory}");
        await host.StopAsync(TestContext.Current.CancellationToken);
    }

    public void Dispose()
    {
        _directory.Dispose();
        if (_stray is not null && Directory.Exists(_stray))
        {
            Directory.Delete(_stray, recursive: true); // only where the store was wrongly made in the working directory
        }
    }

    private static HostApplicationBuilder NewBuilder(Dictionary<string, string?> settings)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(settings);
        return builder;
    }

    private sealed class StoresService([FromKeyedServices("state")] IKeyValueStore state, [FromKeyedServices("catalog")] IKeyValueStore catalog)
        : BackgroundService
    {
        protected override Task ExecuteAsync(CancellationToken stoppingToken) => Task.FromResult((state, catalog));
    }
}

using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace DataStore.Tests.Configuration;

/// <summary>services.AddDataStore registers a working IKeyValueStore singleton that the container disposes.</summary>
public sealed class ServiceCollectionTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void AddDataStore_from_a_section_resolves_one_working_store_disposed_with_the_container()
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection([new("DataStore:Path", _directory.Sub("store"))])
            .Build();
        var provider = new ServiceCollection().AddDataStore(configuration.GetSection("DataStore")).BuildServiceProvider();

        var store = provider.GetRequiredService<IKeyValueStore>();
        Assert.Same(store, provider.GetRequiredService<IKeyValueStore>());
        store.Put("k"u8, "v"u8);
        Assert.Equal("v"u8.ToArray(), store.Get("k"u8));

        provider.Dispose();
        Assert.Throws<ObjectDisposedException>(() => store.HaveKey("k"u8));
    }

    [Fact]
    public void AddDataStore_with_invalid_options_fails_on_resolution_naming_the_setting()
    {
        using var provider = new ServiceCollection().AddDataStore(o => o.Path = "").BuildServiceProvider();
        var error = Assert.Throws<Microsoft.Extensions.Options.OptionsValidationException>(() => provider.GetRequiredService<IKeyValueStore>());
        Assert.Contains("setting Path of the DataStore, from code", error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();
}

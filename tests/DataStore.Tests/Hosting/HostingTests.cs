using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace DataStore.Tests.Hosting;

/// <summary>AddDataStore and AddKeyedDataStore in a real Generic Host: options validated at start, stores opened at start and disposed at stop.</summary>
public sealed class HostingTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task The_store_opens_at_host_start_and_is_disposed_when_the_host_is_disposed()
    {
        var builder = NewBuilder(new() { ["DataStore:Path"] = _directory.Sub("store"), ["DataStore:Timeout"] = "5" });
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        IKeyValueStore store;
        using (var host = builder.Build())
        {
            Assert.False(Directory.Exists(_directory.Sub("store")));
            await host.StartAsync(TestContext.Current.CancellationToken);
            Assert.True(File.Exists(Path.Combine(_directory.Sub("store"), "datastore.json")));
            store = host.Services.GetRequiredService<IKeyValueStore>();
            Assert.Equal(TimeSpan.FromSeconds(5), host.Services.GetRequiredService<IOptions<DataStoreOptions>>().Value.Timeout);
            store.Put("k"u8, "v"u8);
            await host.StopAsync(TestContext.Current.CancellationToken);
        }

        Assert.Throws<ObjectDisposedException>(() => store.HaveKey("k"u8));
    }

    [Fact]
    public async Task ValidateOnStart_reports_each_bad_setting_with_its_source_and_creates_nothing()
    {
        var path = $"{_directory.Sub("a")}{Path.PathSeparator}{_directory.Sub("b")}";
        var builder = NewBuilder(new() { ["Stores:State:Path"] = path, ["Stores:State:Timeout"] = "-3", ["Stores:State:SyncInterval"] = "0" });
        builder.Services.AddKeyedDataStore("state", builder.Configuration.GetSection("Stores:State"));
        using var host = builder.Build();

        var error = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        Assert.Equal(3, error.Failures.Count());
        Assert.Contains(error.Failures, f => f.Contains("setting Path of the DataStore 'state', from configuration section 'Stores:State'", StringComparison.Ordinal));
        Assert.Contains(error.Failures, f => f.Contains("setting Timeout", StringComparison.Ordinal));
        Assert.Contains(error.Failures, f => f.Contains("setting SyncInterval", StringComparison.Ordinal));
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    [Fact]
    public void The_root_configuration_is_refused_at_registration()
    {
        var builder = NewBuilder(new() { ["PATH"] = $"/usr/bin{Path.PathSeparator}/bin" });
        var error = Assert.Throws<InvalidOperationException>(() => builder.Services.AddDataStore(builder.Configuration));
        Assert.Contains("root configuration", error.Message, StringComparison.Ordinal);
        Assert.Contains("GetSection(\"DataStore\")", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Keyed_stores_are_separate_stores_with_their_own_sections()
    {
        var builder = NewBuilder(new()
        {
            ["Stores:State:Path"] = _directory.Sub("state"),
            ["Stores:Catalog:Path"] = _directory.Sub("catalog"),
            ["Stores:Catalog:Backend"] = "Lmdb",
        });
        builder.Services.AddKeyedDataStore("state", builder.Configuration.GetSection("Stores:State"));
        builder.Services.AddKeyedDataStore("catalog", builder.Configuration.GetSection("Stores:Catalog"));
        builder.Services.AddSingleton<TwoStores>();
        using var host = builder.Build();
        await host.StartAsync(TestContext.Current.CancellationToken);

        var both = host.Services.GetRequiredService<TwoStores>();
        Assert.NotSame(both.State, both.Catalog);
        Assert.Equal(StoreBackend.Sqlite, both.State.Backend);
        Assert.Equal(StoreBackend.Lmdb, both.Catalog.Backend);
        both.State.Put("k"u8, "state"u8);
        Assert.False(both.Catalog.HaveKey("k"u8));
        Assert.Null(host.Services.GetService<IKeyValueStore>());
        await host.StopAsync(TestContext.Current.CancellationToken);
    }

    [Theory]
    [InlineData(StoreBackend.LiteDb)]
    [InlineData(StoreBackend.RocksDb)]
    public async Task A_store_held_by_another_process_fails_host_start_with_the_stores_message(StoreBackend backend)
    {
        // An owner that never answers (an older DataStore without the broker, ADR 0015): a serving owner would make this host its client.
        var (path, holder) = HeldStore(backend, "hold-owner-lock", "60000", "LOCKED");
        using var _ = holder;
        using var host = HostFor(path, timeout: "0.3");

        var error = await Assert.ThrowsAnyAsync<DataStoreException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        Assert.Equal(backend, error.Backend);
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
        Assert.Contains("owner lock", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(StoreBackend.LiteDb)]
    [InlineData(StoreBackend.RocksDb)]
    public async Task A_store_held_by_another_process_is_opened_through_its_owner_at_host_start(StoreBackend backend)
    {
        var (path, holder) = HeldStore(backend, "put-loop", "child", "ACK ", "100000000");
        using var _ = holder;
        using var host = HostFor(path, timeout: "10");
        await host.StartAsync(TestContext.Current.CancellationToken);

        var store = host.Services.GetRequiredService<IKeyValueStore>();
        Assert.Equal(StoreRole.Client, store.Sharing.Role);
        store.Put("from-host"u8, "v"u8);
        Assert.True(store.HaveKey("from-host"u8));
        await host.StopAsync(TestContext.Current.CancellationToken);
    }

    [Theory]
    [InlineData(StoreBackend.Sqlite)]
    [InlineData(StoreBackend.RocksDb)]
    public async Task A_store_that_cannot_be_opened_fails_host_start_with_the_stores_message(StoreBackend backend)
    {
        var path = _directory.Sub("damaged");
        KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = backend }).Dispose();
        File.WriteAllText(Path.Combine(path, "datastore.json"), "{ damaged");

        var builder = NewBuilder(new() { ["DataStore:Path"] = path, ["DataStore:Backend"] = backend.ToString() });
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        using var host = builder.Build();

        var error = await Assert.ThrowsAnyAsync<DataStoreException>(() => host.StartAsync(TestContext.Current.CancellationToken));
        Assert.Contains(path, error.Message, StringComparison.Ordinal);
        Assert.Contains("datastore.json", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_store_resolved_without_a_host_opens_on_first_use_and_disposes_asynchronously()
    {
        var services = new ServiceCollection().AddDataStore(o => o.Path = _directory.Sub("plain"));
        IKeyValueStore store;
        await using (var provider = services.BuildServiceProvider())
        {
            store = provider.GetRequiredService<IKeyValueStore>();
            Assert.Same(store, provider.GetRequiredService<IKeyValueStore>());
            store.Put("k"u8, "v"u8);
        }

        Assert.Throws<ObjectDisposedException>(() => store.HaveKey("k"u8));
    }

    public void Dispose() => _directory.Dispose();

    // A store of backend, created here, then held open by a child process running command; it has started once it printed ready.
    private (string Path, ChildProcess Holder) HeldStore(StoreBackend backend, string command, string argument, string ready, string? more = null)
    {
        var path = _directory.Sub("held");
        KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = backend }).Dispose();
        string[] args = more is null ? [command, path, backend.ToString(), "-", argument] : [command, path, backend.ToString(), "-", argument, more];
        var holder = ChildProcess.Start(args);
        holder.WaitForLine(l => l.StartsWith(ready, StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        return (path, holder);
    }

    private static IHost HostFor(string path, string timeout)
    {
        var builder = NewBuilder(new() { ["DataStore:Path"] = path, ["DataStore:Timeout"] = timeout });
        builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
        return builder.Build();
    }

    private static HostApplicationBuilder NewBuilder(Dictionary<string, string?> settings)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(settings);
        return builder;
    }

    private sealed class TwoStores([FromKeyedServices("state")] IKeyValueStore state, [FromKeyedServices("catalog")] IKeyValueStore catalog)
    {
        public IKeyValueStore State => state;

        public IKeyValueStore Catalog => catalog;
    }
}

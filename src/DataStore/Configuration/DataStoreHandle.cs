using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace DataStore.Configuration;

/// <summary>One registered store: opens it once (at host start, or on first resolution) and owns it.</summary>
internal sealed class DataStoreHandle(string name, IServiceProvider provider) : IAsyncDisposable, IDisposable
{
    private readonly Lazy<IKeyValueStore> _store = new(() => Open(name, provider), LazyThreadSafetyMode.ExecutionAndPublication);

    /// <summary>The registration's name; empty for the unkeyed store.</summary>
    public string Name => name;

    /// <summary>The open store; opens it on first use.</summary>
    public IKeyValueStore Store => _store.Value;

    public void Dispose()
    {
        if (_store.IsValueCreated)
        {
            _store.Value.Dispose();
        }
    }

    public ValueTask DisposeAsync() => _store.IsValueCreated ? _store.Value.DisposeAsync() : ValueTask.CompletedTask;

    private static IKeyValueStore Open(string name, IServiceProvider provider)
    {
        // Every registered store's options first: a bad setting of any store fails before this one creates files.
        var monitor = provider.GetRequiredService<IOptionsMonitor<DataStoreOptions>>();
        foreach (var registration in provider.GetServices<DataStoreRegistration>())
        {
            _ = monitor.Get(registration.Name);
        }

        var options = monitor.Get(name);
        return KeyValueStore.Open(options, provider.GetService<ILoggerFactory>(), provider.GetService<IMeterFactory>());
    }
}

using DataStore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers an <see cref="IKeyValueStore"/> singleton with Microsoft.Extensions.DependencyInjection.</summary>
public static class DataStoreServiceCollectionExtensions
{
    /// <summary>Registers a store whose options bind from <paramref name="section"/> (for example <c>configuration.GetSection("DataStore")</c>).</summary>
    public static IServiceCollection AddDataStore(this IServiceCollection services, IConfiguration section)
    {
        ArgumentNullException.ThrowIfNull(section);
        return services.AddDataStore(options => section.Bind(options));
    }

    /// <summary>Registers a store configured by <paramref name="configure"/>; it opens on first use and is disposed with the container.</summary>
    public static IServiceCollection AddDataStore(this IServiceCollection services, Action<DataStoreOptions> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        var options = new DataStoreOptions();
        configure(options);
        options.Validate();
        services.AddSingleton<IKeyValueStore>(provider =>
            KeyValueStore.Open(options, provider.GetService(typeof(ILoggerFactory)) as ILoggerFactory));
        return services;
    }
}

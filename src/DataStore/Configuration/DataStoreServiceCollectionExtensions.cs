using DataStore;
using DataStore.Configuration;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers stores with Microsoft.Extensions.DependencyInjection and the Generic Host.</summary>
/// <remarks>
/// Each registration adds <c>IOptions&lt;DataStoreOptions&gt;</c> (named options for a keyed store), validated at host start
/// (<c>ValidateOnStart</c>), and a hosted service that opens the store when the host starts, so a bad setting or a store
/// that cannot be opened fails the start with its own message. The container disposes the store when the host has
/// stopped, after every hosted service registered later. Without a host the store opens on first resolution.
/// </remarks>
public static class DataStoreServiceCollectionExtensions
{
    /// <summary>Registers an <see cref="IKeyValueStore"/> whose options bind from <paramref name="section"/>, such as <c>configuration.GetSection("DataStore")</c>.</summary>
    /// <exception cref="InvalidOperationException"><paramref name="section"/> is the root configuration.</exception>
    public static IServiceCollection AddDataStore(this IServiceCollection services, IConfiguration section) =>
        services.AddDataStore(Options.Options.DefaultName, section);

    /// <summary>Registers an <see cref="IKeyValueStore"/> configured by <paramref name="configure"/>.</summary>
    public static IServiceCollection AddDataStore(this IServiceCollection services, Action<DataStoreOptions> configure) =>
        services.AddDataStore(Options.Options.DefaultName, configure, "code", binding: null);

    /// <summary>
    /// Registers a keyed <see cref="IKeyValueStore"/> named <paramref name="name"/> (resolve it with
    /// <c>[FromKeyedServices("name")]</c>) whose options bind from <paramref name="section"/>.
    /// </summary>
    public static IServiceCollection AddKeyedDataStore(this IServiceCollection services, string name, IConfiguration section)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return services.AddDataStore(name, section);
    }

    /// <summary>Registers a keyed <see cref="IKeyValueStore"/> named <paramref name="name"/> configured by <paramref name="configure"/>.</summary>
    public static IServiceCollection AddKeyedDataStore(this IServiceCollection services, string name, Action<DataStoreOptions> configure)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return services.AddDataStore(name, configure, "code", binding: null);
    }

    private static IServiceCollection AddDataStore(this IServiceCollection services, string name, IConfiguration section)
    {
        ArgumentNullException.ThrowIfNull(section);
        DataStoreOptionsBinder.ThrowIfRoot(section);
        var binding = new DataStoreBinding((IConfigurationSection)section);
        var source = $"configuration section '{((IConfigurationSection)section).Path}'";
        return services.AddDataStore(name, binding.Bind, source, binding);
    }

    private static IServiceCollection AddDataStore(
        this IServiceCollection services, string name, Action<DataStoreOptions> configure, string source, DataStoreBinding? binding)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        services.AddOptions<DataStoreOptions>(name)
            .Configure(configure)
            .PostConfigure<IServiceProvider>((options, provider) => DataStoreContentRoot.Resolve(options, provider.GetService<IHostEnvironment>()))
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<DataStoreOptions>>(new DataStoreOptionsValidator(name, source, binding));
        services.TryAddKeyedSingleton(name, (provider, _) => new DataStoreHandle(name, provider));
        if (name == Options.Options.DefaultName)
        {
            services.AddSingleton(provider => provider.GetRequiredKeyedService<DataStoreHandle>(name).Store);
        }
        else
        {
            services.AddKeyedSingleton(name, (provider, _) => provider.GetRequiredKeyedService<DataStoreHandle>(name).Store);
        }

        services.AddSingleton(new DataStoreRegistration(name));
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IHostedService, DataStoreHostedService>());
        return services;
    }
}

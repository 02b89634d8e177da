using Microsoft.Extensions.Configuration;

namespace DataStore.Cli;

/// <summary>
/// Finds the store a command works on, as the library's configuration does: ./appsettings.json, then
/// <c>--config FILE</c>, then <c>DATASTORE__</c> environment variables, then <c>--store</c> and <c>--backend</c>.
/// </summary>
internal static class StoreLocator
{
    /// <summary>The options to open the store with. Only a write with a backend named may create a store.</summary>
    /// <exception cref="CliException">No store is named or none is there, or the configuration cannot be read.</exception>
    public static DataStoreOptions Resolve(string? store, StoreBackend? backend, string? configFile, bool mayCreate)
    {
        var options = FromConfiguration(configFile);
        if (store is not null)
        {
            options.Path = store;
        }

        if (backend is not null)
        {
            options.Backend = backend;
        }

        if (string.IsNullOrWhiteSpace(options.Path))
        {
            throw CliException.Usage("no store named: pass --store PATH, or set DataStore:Path in appsettings.json or DATASTORE__PATH.");
        }

        if (options.Backend == StoreBackend.InMemory)
        {
            throw CliException.Usage("the configured backend InMemory keeps nothing on disk; name a persistent backend.");
        }

        options.CreateIfMissing = options.CreateIfMissing && mayCreate && options.Backend is not null;
        var directory = Path.GetFullPath(options.Path);
        if (!options.CreateIfMissing && !KeyValueStore.Exists(directory))
        {
            var hint = mayCreate ? "; pass --backend NAME to create one" : "";
            throw CliException.Store($"no store at '{directory}' (no datastore.json){hint}.");
        }

        return options;
    }

    /// <summary>The options to create a new store with (import): a path and a backend must be named, and no store may be there yet.</summary>
    /// <exception cref="CliException">No store or backend is named, or the path already holds something.</exception>
    public static DataStoreOptions ResolveNew(string? store, StoreBackend? backend, string? configFile)
    {
        var options = FromConfiguration(configFile);
        options.Path = store ?? options.Path;
        options.Backend = backend ?? options.Backend;
        if (string.IsNullOrWhiteSpace(options.Path))
        {
            throw CliException.Usage("no store named: pass --store PATH for the new store.");
        }

        if (options.Backend is null or StoreBackend.InMemory)
        {
            throw CliException.Usage("name the new store's backend with --backend NAME.");
        }

        options.Path = Path.GetFullPath(options.Path);
        Destination.RequireNew(options.Path, "the store");
        options.CreateIfMissing = true;
        return options;
    }

    private static DataStoreOptions FromConfiguration(string? configFile)
    {
        var builder = new ConfigurationBuilder()
            .SetBasePath(Directory.GetCurrentDirectory())
            .AddJsonFile("appsettings.json", optional: true);
        if (configFile is not null)
        {
            var full = Path.GetFullPath(configFile);
            if (!File.Exists(full))
            {
                throw CliException.Usage($"the configuration file '{configFile}' does not exist.");
            }

            builder.AddJsonFile(full, optional: false);
        }

        try
        {
            var configuration = builder.AddEnvironmentVariables().Build();
            return DataStoreOptions.FromConfiguration(configuration.GetSection(DataStoreOptions.SectionName));
        }
        catch (Exception e) when (e is InvalidOperationException or FormatException or InvalidDataException)
        {
            var cause = e.InnerException is { } inner ? $"{e.Message} {inner.Message}" : e.Message;
            throw CliException.Usage($"the DataStore configuration cannot be read: {cause}");
        }
    }
}

using DataStore.Backends;
using DataStore.InMemory;
using DataStore.Manifest;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore;

/// <summary>Opens stores: the one place that picks a backend.</summary>
public static class KeyValueStore
{
    /// <summary>Opens (or creates) the store at <paramref name="path"/>, with the backend its manifest names (SQLite for a new store).</summary>
    public static IKeyValueStore Open(string path) => Open(new DataStoreOptions { Path = path });

    /// <summary>Opens (or creates) the store that <paramref name="options"/> describe.</summary>
    /// <exception cref="ArgumentException">An option is invalid.</exception>
    /// <exception cref="DataStoreException">The store cannot be opened; the message names path, backend and cause.</exception>
    public static IKeyValueStore Open(DataStoreOptions options, ILoggerFactory? loggerFactory = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var logger = (loggerFactory ?? NullLoggerFactory.Instance).CreateLogger("DataStore");
        if (options.Backend == StoreBackend.InMemory)
        {
            return new InMemoryStore();
        }

        var directory = System.IO.Path.GetFullPath(options.Path);
        var requested = options.Backend ?? StoreBackend.Sqlite;
        if (BackendCatalog.Find(requested) is null && !StoreManifest.Exists(directory))
        {
            // Refuse before writing anything, so no manifest names a backend that holds no data.
            throw Unavailable(directory, requested, BackendCatalog.WhyUnavailable(requested));
        }

        using var identity = StoreFiles.Guard(directory, requested, () => StoreIdentity.Establish(directory, options));
        var manifest = identity.Manifest;
        var durability = options.Durability ?? manifest.Durability;
        if (manifest.Backend == StoreBackend.InMemory)
        {
            throw Unavailable(directory, manifest.Backend, "an in-memory store has no directory");
        }

        var factory = BackendCatalog.Find(manifest.Backend) ?? throw Unavailable(directory, manifest.Backend, BackendCatalog.WhyUnavailable(manifest.Backend));
        var store = factory.Open(directory, durability, options, logger, manifest.Checksums);
        try
        {
            StoreFiles.Guard(directory, manifest.Backend, () =>
            {
                identity.Created();
                return true;
            });
        }
        catch
        {
            store.Dispose();
            throw;
        }

        logger.LogDebug("Opened {Backend} store at {Path} ({Durability})", manifest.Backend, directory, durability);
        return store;
    }

    /// <summary>True when this build (with the packages the application references) can open stores of <paramref name="backend"/>.</summary>
    public static bool IsAvailable(StoreBackend backend) => backend == StoreBackend.InMemory || BackendCatalog.Find(backend) is not null;

    private static DataStoreException Unavailable(string directory, StoreBackend backend, string why) =>
        new(StoreFailure.Unavailable, directory, backend, $"the backend cannot be opened: {why}.");
}

using System.Diagnostics.Metrics;
using DataStore.Backends;
using DataStore.Diagnostics;
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
    public static IKeyValueStore Open(DataStoreOptions options, ILoggerFactory? loggerFactory = null) => Open(options, loggerFactory, null);

    /// <summary>Opens (or creates) the store that <paramref name="options"/> describe, logging to <paramref name="loggerFactory"/> and counting on a meter from <paramref name="meterFactory"/>.</summary>
    /// <exception cref="ArgumentException">An option is invalid.</exception>
    /// <exception cref="DataStoreException">The store cannot be opened; the message names path, backend and cause.</exception>
    public static IKeyValueStore Open(DataStoreOptions options, ILoggerFactory? loggerFactory, IMeterFactory? meterFactory)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var logger = (loggerFactory ?? NullLoggerFactory.Instance).CreateLogger("DataStore");
        using var activity = StoreActivities.Start("open", options.Backend, options.Path);
        try
        {
            var store = OpenBackend(options, logger);
            StoreTelemetry.For(meterFactory).Attach(store);

            StoreLog.Opened(logger, store.Backend, store.Path, store.Durability);
            activity?.SetTag("datastore.backend", store.Backend.ToString());
            return store;
        }
        catch (DataStoreException e) when (StoreActivities.Fail(activity, e))
        {
            throw;
        }
    }

    private static KeyValueStoreBase OpenBackend(DataStoreOptions options, ILogger logger)
    {
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

        var openLock = StoreFiles.Guard(directory, requested, () => StoreOpenLock.Share(CreatedFor(directory, options), requested, options.Timeout));
        try
        {
            var store = OpenUnderLock(directory, requested, options, logger);
            store.OpenLock = openLock; // every store type holds it: Dispose releases it after the engine
            return store;
        }
        catch
        {
            openLock?.Dispose();
            throw;
        }
    }

    // The open lock is taken in the directory a new store will have, so a maintenance step never runs beside its creation.
    private static string CreatedFor(string directory, DataStoreOptions options)
    {
        if (options.CreateIfMissing && !StoreManifest.Exists(directory))
        {
            Directory.CreateDirectory(directory);
        }

        return directory;
    }

    private static KeyValueStoreBase OpenUnderLock(string directory, StoreBackend requested, DataStoreOptions options, ILogger logger)
    {
        using var identity = StoreFiles.Guard(directory, requested, () => StoreIdentity.Establish(directory, options));
        var manifest = identity.Manifest;
        var durability = options.Durability ?? manifest.Durability;
        var settings = ManifestSettings.Of(manifest);
        if (manifest.Backend == StoreBackend.InMemory)
        {
            throw Unavailable(directory, manifest.Backend, "an in-memory store has no directory");
        }

        var factory = BackendCatalog.Find(manifest.Backend) ?? throw Unavailable(directory, manifest.Backend, BackendCatalog.WhyUnavailable(manifest.Backend));
        KeyValueStoreBase store = factory is Sharing.IBackendSharing { NeedsOwnerProcess: true }
            ? Sharing.SharedStore.Open(directory, manifest.Backend, options, logger, () => WithFeed(Uncounted(factory.Open(directory, durability, options, logger, settings)), manifest, options, logger))
            : factory.Open(directory, durability, options, logger, settings);
        try
        {
            ChangeFeed.ChangeFeedStart.Start(store, manifest, options, logger);
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

        return store;
    }

    // The engine under a shared store logs its commits before it serves a client, in whichever process owns it (ADR 0020).
    private static IKeyValueStore WithFeed(IKeyValueStore engine, StoreManifest manifest, DataStoreOptions options, ILogger logger)
    {
        try
        {
            ChangeFeed.ChangeFeedStart.Start(engine, manifest, options, logger);
            return engine;
        }
        catch
        {
            engine.Dispose();
            throw;
        }
    }

    // The engine under a shared store: the shared store counts the calls (once).
    private static KeyValueStoreBase Uncounted(KeyValueStoreBase engine)
    {
        engine.Telemetry = StoreTelemetry.Uncounted;
        return engine;
    }

    /// <summary>True when the directory <paramref name="path"/> holds a store (its manifest, <c>datastore.json</c>); opens nothing.</summary>
    /// <remarks>
    /// False for a missing directory, an empty one, and one that lost its manifest but still holds an engine's files, which
    /// <see cref="Open(DataStoreOptions, ILoggerFactory?)"/> refuses rather than create a new store over (ADR 0013).
    /// </remarks>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null or empty.</exception>
    public static bool Exists(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return StoreManifest.Exists(System.IO.Path.GetFullPath(path));
    }

    /// <summary>True when this build (with the packages the application references) can open stores of <paramref name="backend"/>.</summary>
    public static bool IsAvailable(StoreBackend backend) => backend == StoreBackend.InMemory || BackendCatalog.Find(backend) is not null;

    private static DataStoreException Unavailable(string directory, StoreBackend backend, string why) =>
        new(StoreFailure.Unavailable, directory, backend, $"the backend cannot be opened: {why}.");
}

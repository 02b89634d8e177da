using DataStore.Backends;
using DataStore.Manifest;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.ChangeFeed;

/// <summary>
/// Turns an existing store's change feed on or off (ADR 0020, <i>Turning the feed on or off</i>), with the store to itself: the
/// open lock held exclusively, so no process writes with the old setting while the manifest changes. The backend's log is made
/// ready first (created, or trimmed to its latest record), then the manifest is replaced power-safe, which is the one step that
/// changes the setting: a crash before it leaves the old setting over a log nobody reads, a crash after it the new one.
/// </summary>
internal static class ChangeFeedSwitch
{
    private const string Command = "changing the change-feed setting (datastore config)";

    /// <summary>The setting of the store in <paramref name="directory"/>.</summary>
    public static ChangeFeedConfiguration Describe(string directory, bool changed) => Of(directory, StoreManifest.ReadExisting(directory), changed);

    /// <summary>Applies the setting asked for; <paramref name="enabled"/> or <paramref name="retention"/> null keep the store's.</summary>
    public static ChangeFeedConfiguration Configure(string directory, bool? enabled, int? retention, TimeSpan wait)
    {
        var backend = StoreManifest.ReadExisting(directory).Backend; // a missing store is reported before any file is made
        if (!ChangeFeedSupport.Has(backend))
        {
            // Nothing to switch, so nothing to lock: a Packed store is shipped data and gets no datastore.open file.
            return enabled == true || retention is not null
                ? throw new DataStoreException(StoreFailure.Unavailable, directory, backend, $"{ChangeFeedSupport.WhyNot(backend)}, so it cannot be turned on.")
                : Describe(directory, changed: false);
        }

        using var exclusive = StoreOpenLock.Exclusive(directory, backend, wait, Command);
        var manifest = StoreManifest.ReadExisting(directory); // again, now that no process can open the store
        var on = enabled ?? manifest.ChangeFeed is not null;
        var keep = retention ?? manifest.ChangeFeed?.Retention ?? ChangeFeedSettings.DefaultRetention;
        if (on == (manifest.ChangeFeed is not null) && (!on || keep == manifest.ChangeFeed!.Retention))
        {
            return Of(directory, manifest, changed: false);
        }

        StoreManifest next;
        if (!on)
        {
            _ = OpenLog(directory, manifest, retention: 1); // trimmed to its latest record as it closes: the sequence survives, nothing else
            next = manifest with { FormatVersion = manifest.FormatVersionWithoutChangeFeed, ChangeFeed = null };
        }
        else if (manifest.ChangeFeed is { } current)
        {
            next = manifest with { ChangeFeed = current with { Retention = keep } };
        }
        else
        {
            var latest = OpenLog(directory, manifest, keep);
            next = manifest with { FormatVersion = Math.Max(manifest.FormatVersion, StoreManifest.CurrentFormatVersion), ChangeFeed = new ChangeFeedSettings(keep) { ResumedAfter = latest } };
        }

        StoreFiles.Guard(directory, manifest.Backend, () =>
        {
            next.Replace(directory);
            return true;
        });
        return Of(directory, next, changed: true);
    }

    /// <summary>
    /// Opens the engine with its log (created when the store has none; synced, as the store is opened Durable), and returns the
    /// log's latest sequence; the log is pruned to <paramref name="retention"/> as the engine closes.
    /// </summary>
    private static long OpenLog(string directory, StoreManifest manifest, int retention)
    {
        var backend = manifest.Backend;
        var factory = BackendCatalog.Find(backend)
            ?? throw new DataStoreException(StoreFailure.Unavailable, directory, backend, $"the backend cannot be opened: {BackendCatalog.WhyUnavailable(backend)}.");
        var options = new DataStoreOptions { Path = directory, Backend = backend, CreateIfMissing = false };
        var engine = StoreFiles.Guard(directory, backend, () => factory.Open(directory, Durability.Durable, options, NullLogger.Instance, ManifestSettings.Of(manifest)));
        long latest;
        using (engine)
        {
            latest = StartLog(engine, directory, retention);
        }

        // The engine may have marked the store (Durable on Sqlite, Lmdb, LiteDb, in a new boot); this process has the store to
        // itself, so its clean close takes the mark back, as the last close of an open store does (KeyValueStoreBase.Dispose).
        if (ChangeLogMarkTakeBack.After(engine))
        {
            ChangeLogMarkTakeBack.Run(directory);
        }

        return latest;
    }

    // Starts the log of the engine just opened (creating it where there is none) and returns its latest sequence.
    private static long StartLog(IKeyValueStore engine, string directory, int retention)
    {
        var backend = engine.Backend;
        if (engine is not IChangeFeedStore feed)
        {
            throw new DataStoreException(StoreFailure.Unavailable, directory, backend, $"{ChangeFeedSupport.WhyNot(backend)}.");
        }

        try
        {
            feed.StartChangeFeed(new ChangeFeedSettings(retention), NullLogger.Instance);
        }
        catch (DataStoreException e) when (backend == StoreBackend.Lmdb && e.Cause == StoreFailure.Unavailable)
        {
            throw new DataStoreException(StoreFailure.Unavailable, directory, backend,
                "the change feed cannot be turned on for this Lmdb store: it was created without the feed and holds pairs in the main database, " +
                "while a store with the feed keeps them in the named database 'pairs' beside its log. Copy it into a new store created with the feed, " +
                $"datastore migrate --store '{directory}' --to NEW --to-backend Lmdb --change-feed on, then use the new store. Nothing was changed.", e);
        }

        return feed.ReadChanges(long.MaxValue, 0).Latest;
    }

    private static ChangeFeedConfiguration Of(string directory, StoreManifest manifest, bool changed) => new(
        directory, manifest.Backend, manifest.FormatVersion, manifest.ChangeFeed is not null,
        manifest.ChangeFeed?.Retention ?? ChangeFeedSettings.DefaultRetention, changed);
}

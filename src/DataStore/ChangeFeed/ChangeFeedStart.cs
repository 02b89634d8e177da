using DataStore.Manifest;
using Microsoft.Extensions.Logging;

namespace DataStore.ChangeFeed;

/// <summary>Turns a freshly opened store's change log on when its manifest says so; the one place the open path touches the feed.</summary>
internal static class ChangeFeedStart
{
    /// <summary>Starts the feed of <paramref name="store"/> when <paramref name="manifest"/> turns it on.</summary>
    /// <exception cref="DataStoreException">The options ask for a feed the store was created without, or the backend has none.</exception>
    public static void Start(IKeyValueStore store, StoreManifest manifest, DataStoreOptions options, ILogger logger)
    {
        if (manifest.ChangeFeed is not { } settings)
        {
            if (options.ChangeFeed == true)
            {
                throw new DataStoreException(StoreFailure.Unavailable, store.Path, store.Backend,
                    "DataStoreOptions.ChangeFeed is on, but the store has the change feed off; its setting is the manifest's, so that every process agrees. " +
                    "Turn it on while no process has the store open: datastore config --change-feed on (StoreConfiguration.ConfigureChangeFeed).");
            }

            return;
        }

        if (store is not IChangeFeedStore feed)
        {
            throw new DataStoreException(StoreFailure.Unavailable, store.Path, store.Backend,
                $"the store's manifest turns the change feed on. {ChangeFeedSupport.WhyNot(store.Backend)}.");
        }

        feed.StartChangeFeed(settings, logger);
    }
}

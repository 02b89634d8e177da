using DataStore.ChangeFeed;
using DataStore.Manifest;

namespace DataStore;

/// <summary>Reads and changes the store-wide settings of an existing store (ADR 0020: turning the change feed on or off).</summary>
public static class StoreConfiguration
{
    /// <summary>The backend, format version and durability the store at <paramref name="path"/> records in its manifest; the store is not opened.</summary>
    /// <remarks>Takes no lock and writes nothing, so it works while other processes have the store open, and on read-only media.</remarks>
    /// <exception cref="ArgumentException"><paramref name="path"/> is null or empty.</exception>
    /// <exception cref="DataStoreException">There is no store (no manifest), or the manifest cannot be read, is damaged or of a newer format.</exception>
    public static StoreInfo Read(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var directory = System.IO.Path.GetFullPath(path);
        var manifest = StoreFiles.Guard(directory, StoreBackend.Sqlite, () => StoreManifest.Exists(directory)
            ? StoreManifest.ReadExisting(directory)
            : throw new DataStoreException(StoreFailure.Io, directory, StoreBackend.Sqlite, $"there is no store here (no {StoreManifest.FileName})."));
        return new StoreInfo(directory, manifest.Backend, manifest.FormatVersion, manifest.Durability);
    }

    /// <summary>The change-feed setting of the store at <paramref name="path"/>, read from its manifest.</summary>
    /// <exception cref="DataStoreException">There is no store, or its manifest is damaged or of a newer format.</exception>
    public static ChangeFeedConfiguration ReadChangeFeed(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return ChangeFeedSwitch.Describe(System.IO.Path.GetFullPath(path), changed: false);
    }

    /// <summary>
    /// Turns the change feed of the store at <paramref name="path"/> on or off, or changes its retention; every process that opens
    /// the store afterwards follows the new setting. Needs the store to itself: when another process has it open (its open lock
    /// is held longer than <paramref name="wait"/>, 1 s by default), nothing changes and the call fails.
    /// </summary>
    /// <param name="path">The store's directory.</param>
    /// <param name="enabled">True to log every commit, false to stop; null keeps the current setting (to change the retention alone).</param>
    /// <param name="retention">How many of the latest commits the log keeps; null keeps the current one (or the default, 100,000).</param>
    /// <param name="wait">How long to wait for other processes to close the store.</param>
    /// <remarks>
    /// Crash-safe: the log is created (or trimmed to its latest record, which keeps the sequence) before the manifest is replaced,
    /// power-safe, so a crash at any point leaves the store opening with the old setting or the new one. Turned on again, the
    /// sequence continues after the last one the store had, and a subscriber resuming from a number saved before is told to
    /// resynchronize (the commits made while the feed was off have no records). An Lmdb store that holds pairs and was created
    /// without the feed keeps them in another layout: it is refused, naming <c>datastore migrate --change-feed on</c>.
    /// </remarks>
    /// <exception cref="ArgumentException">A retention below 1, or a retention with <paramref name="enabled"/> false.</exception>
    /// <exception cref="DataStoreException">Other processes have the store open (<see cref="StoreFailure.Unavailable"/>), there is no store, the backend has no change feed, or the engine failed.</exception>
    public static ChangeFeedConfiguration ConfigureChangeFeed(string path, bool? enabled, int? retention = null, TimeSpan? wait = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        if (retention is { } kept)
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(kept, 1, nameof(retention));
            if (enabled == false)
            {
                throw new ArgumentException("A retention applies only to a store with the change feed on; leave it out when turning the feed off.", nameof(retention));
            }
        }

        return ChangeFeedSwitch.Configure(System.IO.Path.GetFullPath(path), enabled, retention, wait ?? TimeSpan.FromSeconds(1));
    }
}

using DataStore.Manifest;

namespace DataStore.Backends;

/// <summary>
/// What a backend may use of the store's manifest, which the open read once, before the backend was chosen (ADR 0013):
/// the backend never reads <c>datastore.json</c> itself. The open starts the change feed over the store the backend returns
/// (ADR 0020); <see cref="ChangeFeedResumedAfter"/> only tells a backend's own recovery at open whether the log is on.
/// </summary>
/// <param name="FormatVersion">The manifest's format version; a Sqlite store of version <see cref="StoreManifest.SqlitePageChecksumsFormatVersion"/> or later keeps page checksums (ADR 0023).</param>
/// <param name="Checksums">Pairs are stored with a checksum and checked on reads (ADR 0014).</param>
internal sealed record ManifestSettings(int FormatVersion, bool Checksums)
{
    /// <summary>The settings of <paramref name="manifest"/>.</summary>
    public static ManifestSettings Of(StoreManifest manifest) =>
        new(manifest.FormatVersion, manifest.Checksums) { ChangeFeedResumedAfter = manifest.ChangeFeed?.ResumedAfter };

    /// <summary>With the change feed on, the sequence it resumed after (0: never off); null when it is off.</summary>
    public long? ChangeFeedResumedAfter { get; init; }
}

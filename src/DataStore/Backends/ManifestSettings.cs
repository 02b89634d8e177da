using DataStore.Manifest;

namespace DataStore.Backends;

/// <summary>
/// What a backend may use of the store's manifest, which the open read once, before the backend was chosen (ADR 0013):
/// the backend never reads <c>datastore.json</c> itself. The change-feed setting is not here: the open starts the feed
/// over the store the backend returns (ADR 0020).
/// </summary>
/// <param name="FormatVersion">The manifest's format version; a Sqlite store of version <see cref="StoreManifest.SqlitePageChecksumsFormatVersion"/> or later keeps page checksums (ADR 0023).</param>
/// <param name="Checksums">Pairs are stored with a checksum and checked on reads (ADR 0014).</param>
internal sealed record ManifestSettings(int FormatVersion, bool Checksums)
{
    /// <summary>The settings of <paramref name="manifest"/>.</summary>
    public static ManifestSettings Of(StoreManifest manifest) => new(manifest.FormatVersion, manifest.Checksums);
}

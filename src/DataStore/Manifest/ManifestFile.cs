using System.Text.Json;
using DataStore.Integrity;

namespace DataStore.Manifest;

/// <summary>
/// The bytes of <c>datastore.json</c>: the manifest with a CRC-32C of itself (<c>manifestCrc</c>), so a damaged digit (format
/// version 2 read as 3) or value is found when the store opens instead of changing how it is read.
/// </summary>
/// <remarks>
/// The checksum covers the manifest as this serializer writes it without the checksum. A manifest without one (written by a
/// DataStore before it, or by hand) is read unchecked; one whose checksum does not match is damaged.
/// </remarks>
internal static class ManifestFile
{
    /// <summary>The manifest's bytes with its checksum.</summary>
    public static byte[] Serialize(StoreManifest manifest)
    {
        var unsealed = manifest with { ManifestCrc = null };
        return JsonSerializer.SerializeToUtf8Bytes(unsealed with { ManifestCrc = Checksum(unsealed) }, ManifestJson.Default.StoreManifest);
    }

    /// <summary>Reads a manifest's bytes, checking its checksum when it has one.</summary>
    /// <exception cref="JsonException">The bytes are not a manifest, or its checksum does not match.</exception>
    public static StoreManifest Parse(byte[] bytes)
    {
        var manifest = JsonSerializer.Deserialize(bytes, ManifestJson.Default.StoreManifest)
            ?? throw new JsonException("the manifest is empty");
        if (manifest.ManifestCrc is { } stored)
        {
            var actual = Checksum(manifest with { ManifestCrc = null });
            if (actual != stored)
            {
                throw new JsonException($"its checksum is {actual:x8}, not the {stored:x8} it was written with; if it was edited by hand, remove its manifestCrc line");
            }
        }

        return manifest;
    }

    /// <summary>The <c>formatVersion</c> of a manifest this build cannot read otherwise, or 0 when it has none.</summary>
    public static int PeekFormatVersion(string path)
    {
        try
        {
            using var document = JsonDocument.Parse(File.ReadAllBytes(path));
            return document.RootElement.ValueKind == JsonValueKind.Object
                && document.RootElement.TryGetProperty("formatVersion", out var version)
                && version.TryGetInt32(out var number) ? number : 0;
        }
        catch (JsonException)
        {
            return 0;
        }
    }

    private static uint Checksum(StoreManifest unsealed) =>
        Crc32C.Finish(Crc32C.Append(Crc32C.Seed, JsonSerializer.SerializeToUtf8Bytes(unsealed, ManifestJson.Default.StoreManifest)));
}

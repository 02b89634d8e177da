using System.Text.Json.Serialization;

namespace DataStore.Manifest;

/// <summary>Source-generated JSON for <c>datastore.json</c>: no reflection, so trimmed and native AOT applications read and write it.</summary>
/// <remarks>
/// A member this build does not know is refused, not skipped: a damaged name (<c>"checksums"</c> with one bit flipped) must
/// not read as a store without checksums, whose values would then come back with their checksum bytes attached.
/// </remarks>
[JsonSourceGenerationOptions(WriteIndented = true, PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, UseStringEnumConverter = true,
    UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow)]
[JsonSerializable(typeof(StoreManifest))]
internal sealed partial class ManifestJson : JsonSerializerContext;

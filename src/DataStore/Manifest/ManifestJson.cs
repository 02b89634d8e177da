using System.Text.Json.Serialization;

namespace DataStore.Manifest;

/// <summary>Source-generated JSON for <c>datastore.json</c>: no reflection, so trimmed and native AOT applications read and write it.</summary>
[JsonSourceGenerationOptions(WriteIndented = true, PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, UseStringEnumConverter = true)]
[JsonSerializable(typeof(StoreManifest))]
internal sealed partial class ManifestJson : JsonSerializerContext;

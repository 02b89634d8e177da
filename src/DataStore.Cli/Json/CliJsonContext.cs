using System.Text.Json.Serialization;

namespace DataStore.Cli.Json;

/// <summary>The source-generated serializers for <c>--json</c> output (no reflection: trim- and AOT-safe).</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(PairRecord))]
[JsonSerializable(typeof(CountRecord))]
[JsonSerializable(typeof(InfoRecord))]
[JsonSerializable(typeof(VerifyRecord))]
[JsonSerializable(typeof(ChangeLine))]
[JsonSerializable(typeof(ConfigRecord))]
internal sealed partial class CliJsonContext : JsonSerializerContext;

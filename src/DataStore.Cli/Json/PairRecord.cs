namespace DataStore.Cli.Json;

/// <summary>One pair of <c>get --json</c> or <c>scan --json</c>; <see cref="Value"/> is absent with <c>--keys-only</c>.</summary>
/// <param name="Key">The key as text in the chosen format (UTF-8, hex or base64).</param>
/// <param name="Value">The value in the same format, or null when values were not read.</param>
internal sealed record PairRecord(string Key, string? Value);

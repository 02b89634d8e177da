namespace DataStore.Cli.Json;

/// <summary>The result of <c>count --json</c>.</summary>
/// <param name="Prefix">The prefix counted, in the chosen format ("" for the whole store).</param>
/// <param name="Count">How many keys start with it.</param>
internal sealed record CountRecord(string Prefix, long Count);

namespace DataStore.Cli.Json;

/// <summary>One change of <c>watch --json</c>: one per key or range a commit changed, or one resynchronize.</summary>
/// <param name="Sequence">The commit's sequence number (for <c>resynchronize</c>, the number to continue from).</param>
/// <param name="Kind"><c>put</c>, <c>delete</c>, <c>delete-range</c> or <c>resynchronize</c>.</param>
/// <param name="Key">The key, or the range's first key, in the chosen format; absent for <c>resynchronize</c>.</param>
/// <param name="End">The range's end (exclusive; empty for open), only for <c>delete-range</c>.</param>
internal sealed record ChangeLine(long Sequence, string Kind, string? Key, string? End);

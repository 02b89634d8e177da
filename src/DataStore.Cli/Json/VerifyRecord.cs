namespace DataStore.Cli.Json;

/// <summary>
/// The result of <c>verify --json</c>; the exit code is still 4 when <see cref="Problems"/> is not empty. Backend and path
/// are absent when the verifying child died before it opened the store.
/// </summary>
internal sealed record VerifyRecord(
    string? Backend,
    string? Path,
    long Pairs,
    long Bytes,
    string? Checksum,
    IReadOnlyList<string> Problems,
    bool Healthy);

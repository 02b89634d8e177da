namespace DataStore.Cli.Json;

/// <summary>The result of <c>info --json</c>; <see cref="OwnerProcessId"/> is absent for a store each process opens directly (no owner).</summary>
internal sealed record InfoRecord(
    string Path,
    string Backend,
    int FormatVersion,
    string Durability,
    IReadOnlyList<string> Capabilities,
    string Sharing,
    int? OwnerProcessId,
    long Keys,
    long SizeOnDisk,
    PackedFileInfo? Packed);

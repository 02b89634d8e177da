namespace DataStore;

/// <summary>How far a long store operation (export, import, migrate, backup, verify, compact) has got.</summary>
/// <param name="Phase">The step the operation is in.</param>
/// <param name="Pairs">Key-value pairs processed so far in this phase.</param>
/// <param name="Bytes">Bytes (keys, values, or files) processed so far in this phase.</param>
/// <param name="TotalPairs">Pairs this phase will process, when known.</param>
/// <param name="TotalBytes">Bytes this phase will process, when known.</param>
public readonly record struct StoreProgress(StorePhase Phase, long Pairs, long Bytes, long? TotalPairs, long? TotalBytes);

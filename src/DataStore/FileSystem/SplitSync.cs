namespace DataStore.FileSystem;

/// <summary>
/// What a Durable write saw under the lock: a split made the old way awaiting its file system sync and the layout
/// generation then, or the leaf of a split being prepared (synced with the write's own directories).
/// </summary>
internal readonly record struct SplitSync(bool Unsynced, long Generation, string? PreparedLeaf = null);

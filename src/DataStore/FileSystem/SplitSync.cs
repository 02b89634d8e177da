namespace DataStore.FileSystem;

/// <summary>What a Durable write saw under the lock: a split awaiting its file system sync, and the layout generation then.</summary>
internal readonly record struct SplitSync(bool Unsynced, long Generation);

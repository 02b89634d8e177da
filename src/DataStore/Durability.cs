namespace DataStore;

/// <summary>What a returned write survives.</summary>
public enum Durability
{
    /// <summary>
    /// A returned write survives the process being killed; a power loss or OS crash costs at most
    /// about the last second of writes, because the store syncs in the background.
    /// </summary>
    Relaxed = 0,

    /// <summary>
    /// A returned write also survives a power loss: it is synced to disk before the call returns.
    /// Concurrent durable writers share syncs (group commit).
    /// </summary>
    Durable = 1,
}

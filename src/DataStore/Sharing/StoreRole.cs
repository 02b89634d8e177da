namespace DataStore;

/// <summary>How this process reaches the engine of an open store (for diagnostics; the API is the same in every role).</summary>
public enum StoreRole
{
    /// <summary>This process opened the engine itself, and the engine shares the store with other processes on its own.</summary>
    Direct,

    /// <summary>This process owns the engine and serves the store to other processes.</summary>
    Owner,

    /// <summary>Another process owns the engine; this process reaches the store through it.</summary>
    Client,
}

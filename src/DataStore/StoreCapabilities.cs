namespace DataStore;

/// <summary>What a backend supports; the conformance suite skips, with a printed reason, the rules a backend does not declare.</summary>
[Flags]
public enum StoreCapabilities
{
    /// <summary>Nothing beyond the basic operations.</summary>
    None = 0,

    /// <summary>Data lives on disk and outlives the process.</summary>
    Persistent = 1 << 0,

    /// <summary>Several processes can open the same store at once, reading and writing.</summary>
    SharedAcrossProcesses = 1 << 1,

    /// <summary>A scan reads from a snapshot taken when it started; later writes are invisible to it.</summary>
    SnapshotScans = 1 << 2,

    /// <summary>The store directory records backend, format version and settings (a manifest).</summary>
    SelfDescribing = 1 << 3,

    /// <summary><see cref="IKeyValueStore.Compact"/> gives free space back to the file system.</summary>
    Compaction = 1 << 4,

    /// <summary>A store created with the change feed on delivers every commit of every process to <see cref="ChangeFeedExtensions.Watch"/>.</summary>
    ChangeFeed = 1 << 5,

    /// <summary>The store only reads: every write method throws <see cref="ReadOnlyStoreException"/> (a Packed store).</summary>
    ReadOnly = 1 << 8,
}

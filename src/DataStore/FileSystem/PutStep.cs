namespace DataStore.FileSystem;

/// <summary>The steps of a single FileSystem Put, in order, that <see cref="PutTrace"/> times (each mark is the step's end).</summary>
internal enum PutStep
{
    /// <summary>The temporary key file written.</summary>
    Write,

    /// <summary>The temporary key file flushed to disk.</summary>
    Flush,

    /// <summary>The store's write lock held.</summary>
    Lock,

    /// <summary>Looked for open streaming scans (and cleared closed ones).</summary>
    ScanCheck,

    /// <summary>Found the leaf, splitting it when full.</summary>
    Split,

    /// <summary>Kept the key's pre-image for open scans.</summary>
    PreImage,

    /// <summary>Renamed the key file into place.</summary>
    Rename,

    /// <summary>Let the write lock go.</summary>
    Unlock,

    /// <summary>Synced for durability (Durable stores, or a split's file system sync).</summary>
    Sync,
}

namespace DataStore;

/// <summary>Which step of a long store operation a <see cref="StoreProgress"/> report describes.</summary>
public enum StorePhase
{
    /// <summary>Counting the pairs to be processed, so later reports can give a total.</summary>
    Counting,

    /// <summary>Writing pairs to a dump.</summary>
    Exporting,

    /// <summary>Reading pairs from a dump into a store.</summary>
    Importing,

    /// <summary>Copying pairs from one store into another.</summary>
    Copying,

    /// <summary>Reading a store back and checking it.</summary>
    Verifying,

    /// <summary>Copying a store's files into a backup.</summary>
    BackingUp,

    /// <summary>Giving free space back to the file system.</summary>
    Compacting,
}

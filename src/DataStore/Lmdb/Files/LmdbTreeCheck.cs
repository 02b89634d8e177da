namespace DataStore.Lmdb.Files;

/// <summary>
/// At every open of an existing store, before any read: the store's trees (<see cref="LmdbStoreTrees"/>) walked with our own
/// bounds-checked reader (<see cref="LmdbTreeReader"/>), each up to <see cref="PageBudget"/> pages in key order, so a damaged page there is an
/// error naming the file instead of LMDB aborting the process on it later (its <c>IS_LEAF</c> assertion in
/// <c>mdb_cursor_next</c>), or reading through a wild pointer. The caller holds a read transaction, so no page the walk
/// follows is reused by a writer meanwhile. Pages past the budget are left to verify (ADR 0006).
/// </summary>
internal static class LmdbTreeCheck
{
    /// <summary>16 MiB of 4 KiB pages: about 100,000 pairs of 100 bytes, read in a few milliseconds from the page cache.</summary>
    public const long PageBudget = 4_096;

    /// <summary>Throws a Corrupt <see cref="StoreFormatException"/> naming the data file when the walk meets damage.</summary>
    public static void Run(string directory, string dataFile)
    {
        using var file = StoreFiles.Guard(directory, StoreBackend.Lmdb, () => LmdbDataFile.Open(directory, dataFile));
        LmdbStoreTrees.Walk(file, new LmdbTreeReader(file) { PageBudget = PageBudget }, null, CancellationToken.None);
    }
}

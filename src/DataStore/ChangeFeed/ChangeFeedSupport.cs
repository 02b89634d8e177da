namespace DataStore.ChangeFeed;

/// <summary>Which backends have a change-log part, and why the others do not yet (ADR 0020).</summary>
internal static class ChangeFeedSupport
{
    /// <summary>True when stores of <paramref name="backend"/> can be created with the change feed on.</summary>
    public static bool Has(StoreBackend backend) => backend is StoreBackend.Sqlite or StoreBackend.Lmdb or StoreBackend.LiteDb or StoreBackend.RocksDb or StoreBackend.FileSystem;

    /// <summary>Why <paramref name="backend"/> has no change feed, for exceptions and the conformance suite's skips.</summary>
    public static string WhyNot(StoreBackend backend) => backend switch
    {
        StoreBackend.InMemory =>
            "The InMemory backend has no change feed: nothing outside the process can write to it",
        _ => $"The {backend} backend has no change feed",
    };
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

// Dispose races, timeouts and many threads on a large store (issue 23 items 8 and 9, issue 20 part 6), run on LiteDb.

public sealed class LiteDbDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class LiteDbTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class LiteDbLargeStoreThreadsContract : LargeStoreThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override IKeyValueStore OpenWithCacheSmallerThanTheStore()
    {
        using (LiteDbPageCache.Shrink(12))
        {
            return Open();
        }
    }
}

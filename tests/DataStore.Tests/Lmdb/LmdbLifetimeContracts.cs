using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

// Dispose races, timeouts and many threads on a large store (issue 23 items 8 and 9, issue 20 part 6), run on Lmdb.

public sealed class LmdbDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbLargeStoreThreadsContract : LargeStoreThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

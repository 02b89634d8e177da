using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

// Dispose races, timeouts and many threads on a large store (issue 23 items 8 and 9, issue 20 part 6), run on RocksDb.

public sealed class RocksDbDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbLargeStoreThreadsContract : LargeStoreThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

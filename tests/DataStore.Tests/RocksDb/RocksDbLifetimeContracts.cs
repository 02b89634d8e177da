using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

// Dispose races and timeouts (issue 23, items 8 and 9), run on RocksDb.

public sealed class RocksDbDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

// Dispose races and timeouts (issue 23, items 8 and 9), run on Lmdb.

public sealed class LmdbDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

// Dispose races and timeouts (issue 23, items 8 and 9), run on LiteDb.

public sealed class LiteDbDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class LiteDbTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.InMemory;

// Dispose races and timeouts (issue 23, items 8 and 9), run on InMemory.

public sealed class InMemoryDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.InMemory;

// Dispose races, timeouts and many threads on a large store (issue 23 items 8 and 9, issue 20 part 6), run on InMemory.

public sealed class InMemoryDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryLargeStoreThreadsContract : LargeStoreThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

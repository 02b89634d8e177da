using DataStore.Tests.Conformance;

namespace DataStore.Tests.InMemory;

public sealed class InMemoryStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryKillRoundsContract : KillRoundsContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryKillMaintenanceContract : KillMaintenanceContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

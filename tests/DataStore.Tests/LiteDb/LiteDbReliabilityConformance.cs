using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

public sealed class LiteDbStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class LiteDbKillRoundsContract : KillRoundsContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class LiteDbKillMaintenanceContract : KillMaintenanceContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class LiteDbMaintenanceBesideAppContract : MaintenanceBesideAppContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

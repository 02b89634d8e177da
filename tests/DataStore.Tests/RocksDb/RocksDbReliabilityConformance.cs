using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

public sealed class RocksDbStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbKillRoundsContract : KillRoundsContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbKillMaintenanceContract : KillMaintenanceContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbMaintenanceBesideAppContract : MaintenanceBesideAppContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

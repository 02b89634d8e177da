using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

public sealed class LmdbStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbKillRoundsContract : KillRoundsContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbKillMaintenanceContract : KillMaintenanceContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbMaintenanceBesideAppContract : MaintenanceBesideAppContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sqlite;

public sealed class SqliteStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteKillRoundsContract : KillRoundsContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteKillMaintenanceContract : KillMaintenanceContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteMaintenanceBesideAppContract : MaintenanceBesideAppContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

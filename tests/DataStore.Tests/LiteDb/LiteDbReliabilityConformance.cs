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

    // LiteDB's compaction rewrites every document under the writer lock: the app's writes would wait for all of it
    // (they timed out at 20,000 keys on a loaded machine), so the owner refuses it while another process has the store.
    protected override bool RefusedBesideApp(string command) => command == "compact";
}

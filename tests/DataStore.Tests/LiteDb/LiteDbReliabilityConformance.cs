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

    protected override string? CannotYet(string command) => command == "compact"
        ? "LiteDb's Compact rewrites every document under the writer lock (ADR 0009), so the app's writes wait for the whole rewrite and time out (2-6 s at 20,000 keys here); a compaction that lets writers in is still open"
        : null;
}

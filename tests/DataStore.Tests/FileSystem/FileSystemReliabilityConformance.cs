using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

public sealed class FileSystemStoreIdentityContract : StoreIdentityContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemKillRoundsContract : KillRoundsContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemKillMaintenanceContract : KillMaintenanceContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemMaintenanceBesideAppContract : MaintenanceBesideAppContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

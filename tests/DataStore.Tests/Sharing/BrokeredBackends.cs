namespace DataStore.Tests.Sharing;

// The owner-process rules, on each backend whose engine one process opens at a time.

public sealed class RocksDbOwnerSharingContract : OwnerSharingContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbOwnerSharingContract : OwnerSharingContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class RocksDbOwnerPeerContract : OwnerPeerContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbOwnerPeerContract : OwnerPeerContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class RocksDbOtherUserPeerContract : OtherUserPeerContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class LiteDbOtherUserPeerContract : OtherUserPeerContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class RocksDbClientScanStreamContract : ClientScanStreamContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbClientScanStreamContract : ClientScanStreamContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class RocksDbStoppedOwnerContract : StoppedOwnerContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

[System.Runtime.Versioning.SupportedOSPlatform("linux")]
public sealed class LiteDbStoppedOwnerContract : StoppedOwnerContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

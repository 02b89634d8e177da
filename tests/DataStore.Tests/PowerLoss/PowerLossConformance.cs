namespace DataStore.Tests.PowerLoss;

public sealed class SqlitePowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class FileSystemPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class LiteDbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

namespace DataStore.Tests.ResourceFaults;

public sealed class SqliteResourceFaults : ResourceFaultContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbResourceFaults : ResourceFaultContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbResourceFaults : ResourceFaultContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class FileSystemResourceFaults : ResourceFaultContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class LiteDbResourceFaults : ResourceFaultContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

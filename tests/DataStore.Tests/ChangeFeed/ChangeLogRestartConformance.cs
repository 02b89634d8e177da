namespace DataStore.Tests.ChangeFeed;

// The restart on every backend whose log commits with its data (FileSystem restarts its own in its recovery: FileSystemRelaxedFeedTests).

public sealed class SqliteChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

namespace DataStore.Tests.ChangeFeed;

// The restart on every backend whose log commits with its data (FileSystem restarts its own in its recovery: FileSystemRelaxedFeedTests).

public sealed class SqliteChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;

    protected override bool DurableShownBeforeSynced => true;
}

public sealed class LmdbChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;

    protected override bool DurableShownBeforeSynced => true;
}

public sealed class RocksDbChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool DurableShownBeforeSynced => false;
}

public sealed class LiteDbChangeLogRestartContract : ChangeLogRestartContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool DurableShownBeforeSynced => true;
}

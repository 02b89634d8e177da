namespace DataStore.Tests.ChangeFeed;

// Turning the change feed on or off, on every persistent backend; the backends without a change-log part skip it, printing why.

public sealed class SqliteChangeFeedConfigContract : ChangeFeedConfigContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbChangeFeedConfigContract : ChangeFeedConfigContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class FileSystemChangeFeedConfigContract : ChangeFeedConfigContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class RocksDbChangeFeedConfigContract : ChangeFeedConfigContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbChangeFeedConfigContract : ChangeFeedConfigContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

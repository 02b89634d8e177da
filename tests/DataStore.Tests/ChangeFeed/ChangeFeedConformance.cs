namespace DataStore.Tests.ChangeFeed;

// Rule 13 on every persistent backend; the backends without a change-log part skip it, printing why.

public sealed class SqliteChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbDurableChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;

    protected override Durability FeedDurability => Durability.Durable;
}

public sealed class FileSystemChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;

    // Each FileSystem commit with the feed is journaled and synced (about five syncs): 500 keep CI's budget; the soak makes 10,000.
    protected override int CiCommits => 500;
}

public sealed class RocksDbChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

// Through a client of an owner process (ADR 0015): the owner's engine writes the log, the client reads it through the owner.

public sealed class LiteDbClientChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientChangeFeedContract : ChangeFeedContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

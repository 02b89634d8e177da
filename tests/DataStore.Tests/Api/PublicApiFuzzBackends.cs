namespace DataStore.Tests.Api;

// The public-method fuzz on every backend that takes writes, and through a client of an owner process (ADR 0015).

public sealed class SqlitePublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class FileSystemPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class InMemoryPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class RocksDbClientPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientPublicApiFuzzContract : PublicApiFuzzContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

namespace DataStore.Tests.Load;

// The load contract on every backend (Packed is read-only and InMemory lives in one process: both print their skip).

public sealed class SqliteLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class FileSystemLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class LiteDbLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class InMemoryLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class PackedLoadContract : LoadContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

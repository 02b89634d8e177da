namespace DataStore.Tests.Conformance;

// The open lock on every backend; Packed (which takes none) and InMemory (no directory) skip it, printing why.

public sealed class SqliteOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class FileSystemOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class RocksDbOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class LiteDbOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

public sealed class PackedOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class InMemoryOpenLockContract : OpenLockContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

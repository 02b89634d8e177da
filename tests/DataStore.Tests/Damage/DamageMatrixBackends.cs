namespace DataStore.Tests.Damage;

public sealed class SqliteDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class LmdbDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class RocksDbDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class FileSystemDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class LiteDbDamageMatrix : DamageMatrixContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

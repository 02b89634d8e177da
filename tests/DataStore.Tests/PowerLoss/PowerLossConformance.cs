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

    protected override string? ReorderedDefect(Durability durability) => durability == Durability.Durable ? null :
        "Known (ADR 0005, Power loss): Relaxed writes append to the WAL unsynced; a disk that keeps a later block of that " +
        "unsynced tail without an earlier one leaves a hole, which the WAL recovery mode chosen so that damage is never " +
        "silent (kTolerateCorruptedTailRecords) refuses as corruption ('missing start of fragmented record'). Only " +
        "reordered points; synced-only and in-order points pass.";
}

public sealed class FileSystemPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class LiteDbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

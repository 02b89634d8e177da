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

    protected override string? ReorderedDefect(Durability durability) => durability == Durability.Durable ? null :
        "Known (ADR 0009, Power loss): LiteDB's log pages carry no checksum; a disk that keeps a transaction's confirming " +
        "page from the unsynced log tail without an earlier page of the same transaction makes LiteDB apply a page of " +
        "zeros or stale bytes, and the store reads as damaged. Only reordered points; synced-only and in-order points pass.";
}

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
}

public sealed class FileSystemPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;

    protected override IReadOnlyList<string> WriterArguments => [PreparedSplitPoints.SplitLimit];

    protected override IEnumerable<int> ChosenPoints(IReadOnlyList<LogRecord> records, Random random) => PreparedSplitPoints.Choose(records, random);
}

/// <summary>FileSystem with the change feed: puts, batches, deletes and prefix deletes, each store's log agreeing with its data.</summary>
public sealed class FileSystemFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;

    protected override bool ChangeFeed => true;
}

public sealed class LiteDbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override string? ReorderedDefect(Durability durability) => durability == Durability.Durable ? null :
        "Known (ADR 0009, Power loss): with the log synced before each confirming page and around each emptying of the " +
        "log, reordered points fail about once in 300 (before: 4-6 in 10), always early in the store's life (log record " +
        "266, 774), as 'invalid segment position in index footer'; the cause is not found yet. Only reordered points; " +
        "synced-only and in-order points pass.";
}

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

/// <summary>
/// FileSystem with the change feed: puts, batches, deletes and prefix deletes, each store's log agreeing with its data;
/// Relaxed, whose Puts and Deletes append without a sync, may restart its log instead (ADR 0020, *Relaxed*).
/// </summary>
public sealed class FileSystemFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;

    protected override bool ChangeFeed => true;

    protected override bool LogRestarts(Durability durability) => durability == Durability.Relaxed;
}

public sealed class LiteDbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

/// <summary>LiteDb with the change feed: the log is a collection in the same LiteDB transaction as the data, so the two must agree at every point.</summary>
public sealed class LiteDbFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ChangeFeed => true;
}

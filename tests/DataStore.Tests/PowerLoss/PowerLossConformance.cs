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

/// <summary>Sqlite with the change feed: the log is a table written in the commit's own transaction; it restarts after a power loss.</summary>
public sealed class SqliteFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;

    protected override bool ChangeFeed => true;

    protected override bool LogRestarts(Durability durability) => true; // Durable too: a commit is visible before its WAL sync
}

/// <summary>Lmdb with the change feed: the log is a named database written in the commit's own write transaction; it restarts after a power loss.</summary>
public sealed class LmdbFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;

    protected override bool ChangeFeed => true;

    protected override bool LogRestarts(Durability durability) => true; // Durable too: a commit is visible before its group sync
}

/// <summary>RocksDb with the change feed: the log is a column family written in the commit's own write batch; Relaxed restarts it after a power loss.</summary>
public sealed class RocksDbFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ChangeFeed => true;
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
}

public sealed class LiteDbPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;
}

/// <summary>LiteDb with the change feed: the log is a collection in the same LiteDB transaction as the data, so the two must agree at every point; it restarts after a power loss.</summary>
public sealed class LiteDbFeedPowerLossContract : PowerLossContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ChangeFeed => true;

    protected override bool LogRestarts(Durability durability) => true; // Durable too: a commit is served before its log file's sync
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sqlite;

// The whole conformance suite, run on Sqlite: one sealed subclass per rule.

public sealed class SqliteBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteDurabilityContract : DurabilityContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqlitePointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteProcessesContract : ProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteResourcesContract : ResourcesContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteSelfDescribingContract : SelfDescribingContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteBackupContract : BackupContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteIntegrityContract : IntegrityContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteCompactReportContract : CompactReportContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqlitePairChecksumContract : PairChecksumContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteReadPointContract : ReadPointContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteReadScanContract : ReadScanContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteReadDifferentialContract : ReadDifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteReadOnlyContract : ReadOnlyContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteReadProcessesContract : ReadProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

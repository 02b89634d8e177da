using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

// The whole conformance suite, run on RocksDb: one sealed subclass per rule.

public sealed class RocksDbBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbDurabilityContract : DurabilityContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbProcessesContract : ProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbResourcesContract : ResourcesContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbSelfDescribingContract : SelfDescribingContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbBackupContract : BackupContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbIntegrityContract : IntegrityContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbCompactReportContract : CompactReportContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbPairChecksumContract : PairChecksumContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbReadPointContract : ReadPointContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbReadScanContract : ReadScanContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbReadDifferentialContract : ReadDifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbReadOnlyContract : ReadOnlyContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

public sealed class RocksDbReadProcessesContract : ReadProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

// The whole conformance suite, run on Lmdb: one sealed subclass per rule.

public sealed class LmdbBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbDurabilityContract : DurabilityContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbProcessesContract : ProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbResourcesContract : ResourcesContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbSelfDescribingContract : SelfDescribingContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbBackupContract : BackupContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbIntegrityContract : IntegrityContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbCompactReportContract : CompactReportContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbPairChecksumContract : PairChecksumContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbReadPointContract : ReadPointContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbReadScanContract : ReadScanContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbReadDifferentialContract : ReadDifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbReadOnlyContract : ReadOnlyContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

public sealed class LmdbReadProcessesContract : ReadProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.Lmdb;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.Packed;

// The read rules run on Packed with their data built by PackedStore.Build from each test's pairs.

public sealed class PackedReadPointContract : ReadPointContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedReadScanContract : ReadScanContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedReadDifferentialContract : ReadDifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedReadOnlyContract : ReadOnlyContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedReadProcessesContract : ReadProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

// The write rules, run on Packed: each is skipped with its reason printed, since Packed declares ReadOnly. The
// durability rules are not listed: their writers are child processes; a Packed file is synced before it is renamed in.

public sealed class PackedBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedProcessesContract : ProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedResourcesContract : ResourcesContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedSelfDescribingContract : SelfDescribingContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedBackupContract : BackupContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedIntegrityContract : IntegrityContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedCompactReportContract : CompactReportContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

public sealed class PackedPairChecksumContract : PairChecksumContract
{
    protected override StoreBackend Backend => StoreBackend.Packed;
}

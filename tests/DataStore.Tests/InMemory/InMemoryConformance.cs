using DataStore.Tests.Conformance;

namespace DataStore.Tests.InMemory;

// The whole conformance suite, run on InMemory: one sealed subclass per rule.

public sealed class InMemoryBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryDurabilityContract : DurabilityContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryProcessesContract : ProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryResourcesContract : ResourcesContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemorySelfDescribingContract : SelfDescribingContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryBackupContract : BackupContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryIntegrityContract : IntegrityContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryCompactReportContract : CompactReportContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryPairChecksumContract : PairChecksumContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryReadPointContract : ReadPointContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryReadScanContract : ReadScanContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryReadDifferentialContract : ReadDifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryReadOnlyContract : ReadOnlyContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

public sealed class InMemoryReadProcessesContract : ReadProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.InMemory;
}

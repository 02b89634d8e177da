using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

// The whole conformance suite, run on FileSystem: one sealed subclass per rule.

public sealed class FileSystemBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemDurabilityContract : DurabilityContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemProcessesContract : ProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemResourcesContract : ResourcesContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemSelfDescribingContract : SelfDescribingContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemBackupContract : BackupContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemIntegrityContract : IntegrityContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemCompactReportContract : CompactReportContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemPairChecksumContract : PairChecksumContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemReadPointContract : ReadPointContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemReadScanContract : ReadScanContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemReadDifferentialContract : ReadDifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemReadOnlyContract : ReadOnlyContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemReadProcessesContract : ReadProcessesContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

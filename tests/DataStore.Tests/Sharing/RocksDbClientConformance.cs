using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

// The conformance rules run through a client of an owner process on RocksDb (ADR 0015): one sealed subclass per rule.

public sealed class RocksDbClientBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

public sealed class RocksDbClientThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.RocksDb;

    protected override bool ThroughOwner => true;
}

using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

// The conformance rules run through a client of an owner process on LiteDb (ADR 0015): one sealed subclass per rule.

public sealed class LiteDbClientBatchContract : BatchContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientBytesContract : BytesContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientConsistentReadContract : ConsistentReadContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientDifferentialContract : DifferentialContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientErrorsContract : ErrorsContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientOrderContract : OrderContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientPointAndRangeContract : PointAndRangeContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientScanContract : ScanContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

public sealed class LiteDbClientThreadsContract : ThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.LiteDb;

    protected override bool ThroughOwner => true;
}

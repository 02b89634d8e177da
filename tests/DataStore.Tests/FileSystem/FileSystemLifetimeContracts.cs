using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

// Dispose races and timeouts (issue 23, items 8 and 9), run on FileSystem.

public sealed class FileSystemDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

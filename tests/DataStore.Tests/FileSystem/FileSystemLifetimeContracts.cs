using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

// Dispose races, timeouts and many threads on a large store (issue 23 items 8 and 9, issue 20 part 6), run on FileSystem.

public sealed class FileSystemDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

public sealed class FileSystemLargeStoreThreadsContract : LargeStoreThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.FileSystem;
}

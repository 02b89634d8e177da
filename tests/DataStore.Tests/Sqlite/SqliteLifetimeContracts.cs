using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sqlite;

// Dispose races, timeouts and many threads on a large store (issue 23 items 8 and 9, issue 20 part 6), run on Sqlite.

public sealed class SqliteDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteLargeStoreThreadsContract : LargeStoreThreadsContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

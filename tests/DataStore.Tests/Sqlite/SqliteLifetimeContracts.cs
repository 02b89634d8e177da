using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sqlite;

// Dispose races and timeouts (issue 23, items 8 and 9), run on Sqlite.

public sealed class SqliteDisposeRaceContract : DisposeRaceContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

public sealed class SqliteTimeoutContract : TimeoutContract
{
    protected override StoreBackend Backend => StoreBackend.Sqlite;
}

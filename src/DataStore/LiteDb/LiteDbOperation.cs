namespace DataStore.LiteDb;

/// <summary>One write on the store's collections, run by the store inside a transaction under its write lock.</summary>
internal delegate long LiteDbOperation(LiteDbTable table, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second);

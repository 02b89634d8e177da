namespace DataStore.Sqlite;

/// <summary>The prepared statements a <see cref="SqliteSession"/> keeps, by index into its statement table.</summary>
internal enum SqliteStatement
{
    Put,
    Get,
    HaveKey,
    Delete,
    DeleteFrom,
    DeleteRange,
    ScanFrom,
    ScanRange,
    ScanKeysFrom,
    ScanKeysRange,
    BeginImmediate,
    Commit,
    Rollback,
}

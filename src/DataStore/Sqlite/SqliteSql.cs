namespace DataStore.Sqlite;

/// <summary>
/// Every SQL statement the SQLite backend runs: one <c>WITHOUT ROWID</c> table keyed by the binary key. A store with
/// checksums (ADR 0014) has a third column, <c>c</c>, the pair's CRC-32C, which the statements write and read back.
/// </summary>
internal static class SqliteSql
{
    public const string CreateTable = "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID";
    public const string CreateChecksummedTable = "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL, c INTEGER NOT NULL) WITHOUT ROWID";
    public const string HasChecksumColumn = "SELECT count(*) FROM pragma_table_info('kv') WHERE name = 'c'";
    public const string Put = "INSERT OR REPLACE INTO kv(k, v) VALUES(?1, ?2)";
    public const string Get = "SELECT v FROM kv WHERE k = ?1";
    public const string HaveKey = "SELECT 1 FROM kv WHERE k = ?1";
    public const string Delete = "DELETE FROM kv WHERE k = ?1";
    public const string DeleteFrom = "DELETE FROM kv WHERE k >= ?1";
    public const string DeleteRange = "DELETE FROM kv WHERE k >= ?1 AND k < ?2";
    public const string ScanFrom = "SELECT k, v FROM kv WHERE k >= ?1 ORDER BY k";
    public const string ScanRange = "SELECT k, v FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k";
    public const string ScanKeysFrom = "SELECT k FROM kv WHERE k >= ?1 ORDER BY k";
    public const string ScanKeysRange = "SELECT k FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k";
    public const string BeginImmediate = "BEGIN IMMEDIATE";
    public const string Commit = "COMMIT";
    public const string Rollback = "ROLLBACK";

    /// <summary>The statements of a store without checksums, indexed by <see cref="SqliteStatement"/>.</summary>
    public static readonly string[] Plain =
    [
        Put, Get, HaveKey, Delete, DeleteFrom, DeleteRange, ScanFrom, ScanRange, ScanKeysFrom, ScanKeysRange, BeginImmediate, Commit, Rollback,
    ];

    /// <summary>The statements of a store with checksums: values are read and written with column <c>c</c> beside them.</summary>
    public static readonly string[] Checksummed =
    [
        "INSERT OR REPLACE INTO kv(k, v, c) VALUES(?1, ?2, ?3)", "SELECT v, c FROM kv WHERE k = ?1", HaveKey, Delete, DeleteFrom, DeleteRange,
        "SELECT k, v, c FROM kv WHERE k >= ?1 ORDER BY k", "SELECT k, v, c FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k",
        ScanKeysFrom, ScanKeysRange, BeginImmediate, Commit, Rollback,
    ];
}

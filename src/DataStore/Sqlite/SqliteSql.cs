namespace DataStore.Sqlite;

/// <summary>Every SQL statement the SQLite backend runs: one <c>WITHOUT ROWID</c> table keyed by the binary key.</summary>
internal static class SqliteSql
{
    public const string CreateTable = "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID";
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
}

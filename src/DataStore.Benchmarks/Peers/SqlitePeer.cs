using DataStore.Benchmarks.Ycsb;
using Microsoft.Data.Sqlite;

namespace DataStore.Benchmarks.Peers;

/// <summary>
/// SQLite as a .NET developer would drive it by hand with Microsoft.Data.Sqlite: one <c>WITHOUT ROWID</c> table,
/// WAL with <c>synchronous=NORMAL</c>, a connection per thread (no pooling) with its commands prepared once and
/// reused, each write its own autocommit statement. No checksums, no background sync, no cross-process timeout policy.
/// </summary>
public sealed class SqlitePeer : IYcsbTarget
{
    private readonly string _connectionString;
    private readonly ThreadLocal<SqlitePeerConnection> _connections;

    public SqlitePeer(string directory)
    {
        _connectionString = new SqliteConnectionStringBuilder { DataSource = Path.Combine(directory, "peer.sqlite"), Pooling = false }.ToString();
        using (var setup = new SqliteConnection(_connectionString))
        {
            setup.Open();
            using var command = setup.CreateCommand();
            command.CommandText = "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID;";
            command.ExecuteNonQuery();
        }

        _connections = new ThreadLocal<SqlitePeerConnection>(() => new SqlitePeerConnection(_connectionString), trackAllValues: true);
    }

    public void Load(IReadOnlyList<(byte[] Key, byte[] Value)> pairs) => _connections.Value!.WriteAll(pairs);

    public int Read(ReadOnlySpan<byte> key, Span<byte> buffer) => _connections.Value!.Read(key.ToArray(), buffer);

    public void Write(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value) => _connections.Value!.Write(key.ToArray(), value.ToArray());

    public int Scan(ReadOnlySpan<byte> start, int count) => _connections.Value!.Scan(start.ToArray(), count);

    public void Dispose()
    {
        foreach (var connection in _connections.Values)
        {
            connection.Dispose();
        }

        _connections.Dispose();
    }
}

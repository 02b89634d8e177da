using Microsoft.Data.Sqlite;

namespace DataStore.Benchmarks.Peers;

/// <summary>One thread's connection of <see cref="SqlitePeer"/> and its prepared commands.</summary>
public sealed class SqlitePeerConnection : IDisposable
{
    private readonly SqliteConnection _connection;
    private readonly SqliteCommand _read;
    private readonly SqliteCommand _write;
    private readonly SqliteCommand _scan;

    public SqlitePeerConnection(string connectionString)
    {
        _connection = new SqliteConnection(connectionString);
        _connection.Open();
        using (var pragma = _connection.CreateCommand())
        {
            pragma.CommandText = "PRAGMA synchronous=NORMAL;";
            pragma.ExecuteNonQuery();
        }

        _read = Prepare("SELECT v FROM kv WHERE k = $k", "$k");
        _write = Prepare("INSERT OR REPLACE INTO kv(k, v) VALUES ($k, $v)", "$k", "$v");
        _scan = Prepare("SELECT k, v FROM kv WHERE k >= $k ORDER BY k LIMIT $n", "$k", "$n");
    }

    public int Read(byte[] key, Span<byte> buffer)
    {
        _read.Parameters[0].Value = key;
        using var reader = _read.ExecuteReader();
        if (!reader.Read())
        {
            return -1;
        }

        var value = reader.GetFieldValue<byte[]>(0);
        value.CopyTo(buffer);
        return value.Length;
    }

    public void Write(byte[] key, byte[] value)
    {
        _write.Parameters[0].Value = key;
        _write.Parameters[1].Value = value;
        _write.ExecuteNonQuery();
    }

    public void WriteAll(IReadOnlyList<(byte[] Key, byte[] Value)> pairs)
    {
        using var transaction = _connection.BeginTransaction();
        _write.Transaction = transaction;
        foreach (var (key, value) in pairs)
        {
            Write(key, value);
        }

        transaction.Commit();
        _write.Transaction = null;
    }

    public int Scan(byte[] start, int count)
    {
        _scan.Parameters[0].Value = start;
        _scan.Parameters[1].Value = count;
        using var reader = _scan.ExecuteReader();
        var read = 0;
        while (reader.Read())
        {
            read += reader.GetFieldValue<byte[]>(1).Length > 0 ? 1 : 0;
        }

        return read;
    }

    public void Dispose()
    {
        _read.Dispose();
        _write.Dispose();
        _scan.Dispose();
        _connection.Dispose();
    }

    private SqliteCommand Prepare(string sql, params string[] parameters)
    {
        var command = _connection.CreateCommand();
        command.CommandText = sql;
        foreach (var name in parameters)
        {
            command.Parameters.Add(new SqliteParameter { ParameterName = name });
        }

        command.Prepare();
        return command;
    }
}

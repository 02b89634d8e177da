using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// One point read on a connection from <see cref="SqlitePointReads"/>: binds the key and steps once. <see cref="Value"/> is valid until
/// <see cref="Dispose"/>, which resets the statement (ending SQLite's implicit read transaction) and gives the connection back.
/// </summary>
internal ref struct SqliteLookup
{
    private readonly SqlitePointReads _pool;
    private readonly SqliteSession _session;
    private readonly sqlite3_stmt? _statement;

    public SqliteLookup(SqlitePointReads pool, SqliteStatement which, ReadOnlySpan<byte> key, string operation)
    {
        _pool = pool;
        _session = pool.Rent();
        try
        {
            _statement = _session.Statement(which);
            _session.Bind(_statement, 1, key);
            Found = _session.Step(_statement, operation);
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    /// <summary>True when the key is present.</summary>
    public bool Found { get; }

    /// <summary>The first column of the row found (the value, for <see cref="SqliteStatement.Get"/>).</summary>
    public readonly ReadOnlySpan<byte> Value => raw.sqlite3_column_blob(_statement!, 0);

    /// <summary>The value found, after checking it against its stored checksum when the store has them (ADR 0014).</summary>
    /// <exception cref="StoreFormatException">The pair does not match its checksum (Corrupt, naming the key).</exception>
    public readonly ReadOnlySpan<byte> CheckedValue(ReadOnlySpan<byte> key)
    {
        var value = Value;
        if (_session.Checksums && !SqliteSession.Matches(_statement!, 1, key, value))
        {
            Integrity.PairDamage.Throw(_session.Errors.Directory, StoreBackend.Sqlite, key, "its value does not match its checksum");
        }

        return value;
    }

    public readonly void Dispose()
    {
        if (_statement is not null)
        {
            raw.sqlite3_reset(_statement);
        }

        _pool.Return(_session);
    }
}

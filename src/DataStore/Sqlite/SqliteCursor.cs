using SQLitePCL;

namespace DataStore.Sqlite;

/// <summary>
/// A scan on its own reader connection. Its first row is fetched when it opens, which starts SQLite's read
/// transaction there: the scan sees the store as of that moment, whatever is written later.
/// </summary>
internal sealed class SqliteCursor : IKeyValueCursor
{
    private readonly SqliteSessionPool _pool;
    private readonly bool _keysOnly;
    private SqliteSession? _session;
    private readonly sqlite3_stmt? _statement;
    private bool _pendingRow;
    private bool _onRow;

    public SqliteCursor(SqliteSessionPool pool, ReadOnlySpan<byte> start, ReadOnlySpan<byte> end, bool keysOnly)
    {
        _pool = pool;
        _keysOnly = keysOnly;
        _session = pool.Rent();
        try
        {
            var which = (keysOnly, end.IsEmpty) switch
            {
                (false, true) => SqliteStatement.ScanFrom,
                (false, false) => SqliteStatement.ScanRange,
                (true, true) => SqliteStatement.ScanKeysFrom,
                (true, false) => SqliteStatement.ScanKeysRange,
            };
            _statement = _session.Statement(which);
            _session.Bind(_statement, 1, start);
            if (!end.IsEmpty)
            {
                _session.Bind(_statement, 2, end);
            }

            _pendingRow = _session.Step(_statement, "scanning");
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public ReadOnlySpan<byte> Key => raw.sqlite3_column_blob(Statement, 0);

    public ReadOnlySpan<byte> Value => _keysOnly ? default : raw.sqlite3_column_blob(Statement, 1);

    private sqlite3_stmt Statement => _onRow && _statement is not null
        ? _statement
        : throw new InvalidOperationException("Call MoveNext before reading the cursor, and stop when it returns false.");

    public bool MoveNext()
    {
        ObjectDisposedException.ThrowIf(_session is null, this);
        if (_pendingRow)
        {
            _pendingRow = false;
            _onRow = true;
            CheckPair();
            return true;
        }

        _onRow = _onRow && _session.Step(_statement!, "scanning");
        if (!_onRow)
        {
            raw.sqlite3_reset(_statement!);
            return false;
        }

        CheckPair();
        return true;
    }

    // A pair that fails its checksum ends the scan with an error naming its key (a keys-only scan reads no values to check).
    private void CheckPair()
    {
        if (_keysOnly || !_session!.Checksums || SqliteSession.Matches(_statement!, 2, Key, Value))
        {
            return;
        }

        var key = Key.ToArray();
        _onRow = false;
        Integrity.PairDamage.Throw(_session.Errors.Directory, StoreBackend.Sqlite, key, "its value does not match its checksum");
    }

    public void Dispose()
    {
        _onRow = false;
        _pendingRow = false;
        if (_session is { } session)
        {
            _session = null;
            if (_statement is { } statement)
            {
                raw.sqlite3_reset(statement);
                raw.sqlite3_clear_bindings(statement);
            }

            _pool.Return(session);
        }
    }
}

namespace DataStore.Sqlite;

/// <summary>Reader connections for point reads and scans: rented by one thread at a time, kept open between uses.</summary>
/// <remarks>At most <see cref="MaxIdle"/> idle connections are kept; more are opened under load and closed on return.</remarks>
internal sealed class SqliteSessionPool(Func<SqliteSession> open) : IDisposable
{
    private static readonly int MaxIdle = Math.Max(4, Environment.ProcessorCount * 2);
    private readonly Lock _gate = new();
    private readonly Stack<SqliteSession> _idle = new();
    private bool _disposed;

    public SqliteSession Rent()
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_disposed, this);
            if (_idle.TryPop(out var session))
            {
                return session;
            }
        }

        return open();
    }

    public void Return(SqliteSession session)
    {
        lock (_gate)
        {
            if (!_disposed && _idle.Count < MaxIdle)
            {
                _idle.Push(session);
                return;
            }
        }

        session.Dispose();
    }

    /// <summary>Closes the idle connections; connections still rented close when they come back.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _disposed = true;
            while (_idle.TryPop(out var session))
            {
                session.Dispose();
            }
        }
    }
}

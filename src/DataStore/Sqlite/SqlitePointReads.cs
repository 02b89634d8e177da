using DataStore.Sync;

namespace DataStore.Sqlite;

/// <summary>
/// Where a point read runs: on the writer connection when no write holds it, else on a pooled reader connection.
/// </summary>
/// <remarks>
/// In WAL mode SQLite drops a connection's whole page cache when that connection begins a read after another
/// connection wrote, so reads on reader connections between writes reload the B-tree's pages from the file every
/// time. The writer connection's cache stays current with its own writes. A read there runs under the write lock,
/// taken only if free (never waited for), when no transaction is open on the connection: it sees the committed state,
/// as a reader connection would, so isolation is unchanged.
/// </remarks>
internal sealed class SqlitePointReads(StoreWriterLock writeLock, SqliteCheckpointTurn checkpointTurn, SqliteWriter writer, SqliteSessionPool readers)
{
    /// <summary>The writer connection if its lock is free and the checkpointer is not waiting for it, else a reader connection; give it back with <see cref="Return"/>.</summary>
    public SqliteSession Rent() => !checkpointTurn.Pending && writeLock.TryEnter() ? writer.Session : readers.Rent();

    /// <summary>Releases the write lock for the writer connection, or returns a reader connection to the pool.</summary>
    public void Return(SqliteSession session)
    {
        if (ReferenceEquals(session, writer.Session))
        {
            writeLock.Exit();
        }
        else
        {
            readers.Return(session);
        }
    }
}

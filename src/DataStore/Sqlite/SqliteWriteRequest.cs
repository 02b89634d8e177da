using DataStore.Writes;

namespace DataStore.Sqlite;

/// <summary>What one caller's write does (<see cref="SqliteWriteRequest"/>).</summary>
internal enum SqliteWriteKind
{
    Put,
    Delete,
    DeleteRange,
    Batch,
}

/// <summary>
/// One caller's write waiting for the Sqlite writer (<see cref="SqliteWriteCombiner"/>; what it carries:
/// <see cref="QueuedWrite"/>). One request per thread is reused (<see cref="ForThisThread"/>).
/// </summary>
internal sealed unsafe class SqliteWriteRequest : QueuedWrite
{
    [ThreadStatic]
    private static SqliteWriteRequest? s_current;

    private SqliteErrors _errors = null!;

    public SqliteWriteKind Kind { get; private set; }

    /// <summary>True once the request changed the store (a batch whose precondition failed did not).</summary>
    public bool Wrote => Kind != SqliteWriteKind.Batch || Result < 0;

    public override TimeSpan Timeout => _errors.Timeout;

    /// <summary>The calling thread's request, filled in; the pointers must stay pinned until the request is done.</summary>
    public static SqliteWriteRequest ForThisThread(SqliteErrors errors, SqliteWriteKind kind, byte* first, int firstLength, byte* second, int secondLength, WriteBatch? batch)
    {
        var request = s_current ??= new SqliteWriteRequest();
        request.Fill(first, firstLength, second, secondLength, batch);
        request._errors = errors;
        request.Kind = kind;
        return request;
    }

    public override Exception TimedOut() => _errors.TimedOut();
}

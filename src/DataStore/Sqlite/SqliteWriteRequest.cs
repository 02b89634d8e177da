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
/// One caller's write waiting for the Sqlite writer (<see cref="SqliteWriteCombiner"/>): what to write, and once a
/// leader ran it, its result and the commit's sync ticket.
/// </summary>
/// <remarks>
/// The key and value are the caller's own memory, pinned by the caller, which waits until the request is done, so
/// nothing is copied. One request per thread is reused (<see cref="ForThisThread"/>): a thread waits for its request
/// to finish before it can start another.
/// </remarks>
internal sealed unsafe class SqliteWriteRequest : QueuedWrite
{
    [ThreadStatic]
    private static SqliteWriteRequest? s_current;

    private byte* _first;
    private int _firstLength;
    private byte* _second;
    private int _secondLength;
    private SqliteErrors _errors = null!;

    public SqliteWriteKind Kind { get; private set; }

    public WriteBatch? Batch { get; private set; }

    /// <summary>The key (Put, Delete) or range start.</summary>
    public ReadOnlySpan<byte> First => new(_first, _firstLength);

    /// <summary>The value (Put) or range end.</summary>
    public ReadOnlySpan<byte> Second => new(_second, _secondLength);

    /// <summary>The write's result: keys removed (DeleteRange), a failed precondition's index (Batch), or -1.</summary>
    public long Result { get; set; }

    /// <summary>The commit's ticket for the WAL sync; 0 when the request wrote nothing.</summary>
    public long Ticket { get; set; }

    /// <summary>True once the request changed the store (a batch whose precondition failed did not).</summary>
    public bool Wrote => Kind != SqliteWriteKind.Batch || Result < 0;

    public override TimeSpan Timeout => _errors.Timeout;

    /// <summary>The calling thread's request, filled in; the pointers must stay pinned until the request is done.</summary>
    public static SqliteWriteRequest ForThisThread(SqliteErrors errors, SqliteWriteKind kind, byte* first, int firstLength, byte* second, int secondLength, WriteBatch? batch)
    {
        var request = s_current ??= new SqliteWriteRequest();
        request.Reset();
        request._errors = errors;
        request.Kind = kind;
        request._first = first;
        request._firstLength = firstLength;
        request._second = second;
        request._secondLength = secondLength;
        request.Batch = batch;
        request.Result = -1;
        request.Ticket = 0;
        return request;
    }

    /// <summary>Drops the references to the caller's batch and memory once the caller has its outcome.</summary>
    public void Clear()
    {
        Batch = null;
        _first = null;
        _second = null;
        Failure = null;
    }

    public override long SizeHint()
    {
        if (Batch is null)
        {
            return _firstLength + (long)_secondLength;
        }

        long bytes = 0;
        for (var i = 0; i < Batch.OperationCount; i++)
        {
            bytes += Batch.Operation(i).FirstLength + (long)Batch.Operation(i).SecondLength;
        }

        return bytes;
    }

    public override Exception TimedOut() => _errors.TimedOut();
}

using DataStore.Writes;

namespace DataStore.Lmdb;

/// <summary>
/// One caller's write waiting in the environment's <see cref="WriteQueue{TWrite}"/>: what to write, and once a leader ran it, its result,
/// the commit's sync ticket or the exception it ended with.
/// </summary>
/// <remarks>
/// The keys and values are the caller's own memory, pinned by the caller, which waits until the request is done, so
/// nothing is copied. One request per thread is reused (<see cref="ForThisThread"/>): a thread waits for its request
/// to finish before it can start another.
/// </remarks>
internal sealed unsafe class LmdbWriteRequest : QueuedWrite
{
    [ThreadStatic]
    private static LmdbWriteRequest? s_current;

    private byte* _first;
    private int _firstLength;
    private byte* _second;
    private int _secondLength;

    public LmdbWriteKind Kind { get; private set; }

    public WriteBatch? Batch { get; private set; }

    public LmdbErrors Errors { get; private set; } = null!;

    public ReadOnlySpan<byte> First => new(_first, _firstLength);

    public ReadOnlySpan<byte> Second => new(_second, _secondLength);

    /// <summary>The operation's result: keys removed, a failed precondition's index, or -1.</summary>
    public long Result { get; set; }

    /// <summary>The commit's ticket for the group sync; 0 when the request wrote nothing.</summary>
    public long Ticket { get; set; }

    public override TimeSpan Timeout => Errors.Timeout;

    /// <summary>The calling thread's request, filled in; the pointers must stay pinned until the request is done.</summary>
    public static LmdbWriteRequest ForThisThread(LmdbErrors errors, LmdbWriteKind kind, byte* first, int firstLength, byte* second, int secondLength, WriteBatch? batch)
    {
        var request = s_current ??= new LmdbWriteRequest();
        request.Reset();
        request.Errors = errors;
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

    public override Exception TimedOut() => Errors.TimedOut();

    /// <summary>The bytes the write adds at most, for growing a full map.</summary>
    public override long SizeHint()
    {
        if (Kind != LmdbWriteKind.Batch)
        {
            return _firstLength + (long)_secondLength;
        }

        long bytes = 0;
        for (var i = 0; i < Batch!.OperationCount; i++)
        {
            var operation = Batch.Operation(i);
            bytes += operation.FirstLength + operation.SecondLength;
        }

        return bytes;
    }
}

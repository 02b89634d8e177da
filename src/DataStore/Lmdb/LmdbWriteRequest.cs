using DataStore.Writes;

namespace DataStore.Lmdb;

/// <summary>
/// One caller's write waiting in the environment's <see cref="WriteQueue{TWrite}"/> (what it carries: <see cref="QueuedWrite"/>).
/// One request per thread is reused (<see cref="ForThisThread"/>).
/// </summary>
internal sealed unsafe class LmdbWriteRequest : QueuedWrite
{
    [ThreadStatic]
    private static LmdbWriteRequest? s_current;

    public LmdbWriteKind Kind { get; private set; }

    public LmdbErrors Errors { get; private set; } = null!;

    public override TimeSpan Timeout => Errors.Timeout;

    /// <summary>The calling thread's request, filled in; the pointers must stay pinned until the request is done.</summary>
    public static LmdbWriteRequest ForThisThread(LmdbErrors errors, LmdbWriteKind kind, byte* first, int firstLength, byte* second, int secondLength, WriteBatch? batch)
    {
        var request = s_current ??= new LmdbWriteRequest();
        request.Fill(first, firstLength, second, secondLength, batch);
        request.Errors = errors;
        request.Kind = kind;
        return request;
    }

    public override Exception TimedOut() => Errors.TimedOut();
}

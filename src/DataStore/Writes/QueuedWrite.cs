using System.Runtime.ExceptionServices;

namespace DataStore.Writes;

/// <summary>
/// One caller's write waiting in a <see cref="WriteQueue{TWrite}"/>: the queue's bookkeeping, and once a leader has run
/// it, the exception it ended with. What to write and its result are the backend's (the subclass).
/// </summary>
internal abstract class QueuedWrite
{
    /// <summary>Set once a leader has taken the write into its transaction: from then on it cannot time out.</summary>
    public bool Taken { get; set; }

    /// <summary>Set (under the queue's lock) once the write has its result or its exception.</summary>
    public bool Done { get; set; }

    /// <summary>The exception the write ended with, thrown again on its caller's thread.</summary>
    public ExceptionDispatchInfo? Failure { get; set; }

    /// <summary>How long the caller waits for a leader to take the write.</summary>
    public abstract TimeSpan Timeout { get; }

    /// <summary>The bytes the write carries, so that one group stays bounded.</summary>
    public abstract long SizeHint();

    /// <summary>The exception a caller gets when no leader took its write within <see cref="Timeout"/>.</summary>
    public abstract Exception TimedOut();

    /// <summary>Makes the write ready to queue again (a thread reuses its own).</summary>
    protected void Reset()
    {
        Taken = false;
        Done = false;
        Failure = null;
    }
}

using System.Runtime.ExceptionServices;

namespace DataStore.Writes;

/// <summary>
/// One caller's write waiting in a <see cref="WriteQueue{TWrite}"/>: what to write (a key or range and a value, or a
/// batch), the queue's bookkeeping, and once a leader ran it, its result, the commit's sync ticket or the exception it
/// ended with. What kind of write it is, and the backend's errors, are the subclass's.
/// </summary>
/// <remarks>
/// The key and value are the caller's own memory, pinned by the caller, which waits until the write is done, so nothing
/// is copied. A backend reuses one write per thread: a thread waits for its write to finish before it can start another.
/// </remarks>
internal abstract unsafe class QueuedWrite
{
    private byte* _first;
    private int _firstLength;
    private byte* _second;
    private int _secondLength;

    /// <summary>The batch to commit, or null for a single-key or range write.</summary>
    public WriteBatch? Batch { get; private set; }

    /// <summary>The key, or a range's start.</summary>
    public ReadOnlySpan<byte> First => new(_first, _firstLength);

    /// <summary>The value, or a range's end.</summary>
    public ReadOnlySpan<byte> Second => new(_second, _secondLength);

    /// <summary>The write's result: keys removed, a failed precondition's index, or -1.</summary>
    public long Result { get; set; }

    /// <summary>The commit's ticket for the group sync; 0 when the write changed nothing.</summary>
    public long Ticket { get; set; }

    /// <summary>Set once a leader has taken the write into its transaction: from then on it cannot time out.</summary>
    public bool Taken { get; set; }

    /// <summary>Set (under the queue's lock) once the write has its result or its exception.</summary>
    public bool Done { get; set; }

    /// <summary>The exception the write ended with, thrown again on its caller's thread.</summary>
    public ExceptionDispatchInfo? Failure { get; set; }

    /// <summary>How long the caller waits for a leader to take the write.</summary>
    public abstract TimeSpan Timeout { get; }

    /// <summary>The exception a caller gets when no leader took its write within <see cref="Timeout"/>.</summary>
    public abstract Exception TimedOut();

    /// <summary>The bytes of keys and values the write carries (what it adds at most), so that one group stays bounded.</summary>
    public long SizeHint()
    {
        if (Batch is null)
        {
            return _firstLength + (long)_secondLength;
        }

        long bytes = 0;
        for (var i = 0; i < Batch.OperationCount; i++)
        {
            var operation = Batch.Operation(i);
            bytes += operation.FirstLength + (long)operation.SecondLength;
        }

        return bytes;
    }

    /// <summary>Drops the references to the caller's batch and memory once the caller has its outcome.</summary>
    public void Clear()
    {
        Batch = null;
        _first = null;
        _second = null;
        Failure = null;
    }

    /// <summary>Makes the write ready to queue with new contents (the pointers pinned until it is done), no result yet.</summary>
    protected void Fill(byte* first, int firstLength, byte* second, int secondLength, WriteBatch? batch)
    {
        _first = first;
        _firstLength = firstLength;
        _second = second;
        _secondLength = secondLength;
        Batch = batch;
        Result = -1;
        Ticket = 0;
        Taken = false;
        Done = false;
        Failure = null;
    }
}

using System.Runtime.ExceptionServices;
using DataStore.ChangeFeed;

namespace DataStore.Writes;

/// <summary>
/// One caller's write waiting in a <see cref="WriteQueue{TErrors}"/>: what to write (a key or range and a value, or a
/// batch), the queue's bookkeeping, and once a leader ran it, its result, the commit's sync ticket or the exception it
/// ended with. <typeparamref name="TErrors"/> is the backend's error translator, the caller's store's own (its timeout).
/// </summary>
/// <remarks>
/// The key and value are the caller's own memory, pinned by the caller, which waits until the write is done, so nothing
/// is copied. One write per thread (and backend) is reused (<see cref="ForThisThread"/>): a thread waits for its write to
/// finish before it can start another.
/// </remarks>
internal sealed unsafe class QueuedWrite<TErrors>
    where TErrors : class, IWriteErrors
{
    [ThreadStatic]
    private static QueuedWrite<TErrors>? s_current;

    private readonly object _wake = new();
    private bool _woken;
    private volatile bool _done;
    private byte* _first;
    private int _firstLength;
    private byte* _second;
    private int _secondLength;

    /// <summary>The error translator of the caller's store.</summary>
    public TErrors Errors { get; private set; } = null!;

    /// <summary>What the write does.</summary>
    public WriteKind Kind { get; private set; }

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

    /// <summary>Set once the write has its result or its exception (before its caller is woken).</summary>
    public bool Done
    {
        get => _done;
        set => _done = value;
    }

    /// <summary>The group this write's caller runs when it leads (one list per thread, reused).</summary>
    public List<QueuedWrite<TErrors>> Group { get; } = new(WriteQueue<TErrors>.MaxGroup);

    /// <summary>The exception the write ended with, thrown again on its caller's thread.</summary>
    public ExceptionDispatchInfo? Failure { get; set; }

    /// <summary>
    /// True once the write changed the store (or tried to): not a batch whose precondition failed, nor a prune that
    /// found nothing to remove.
    /// </summary>
    public bool Wrote => Kind switch
    {
        WriteKind.Batch => Result < 0,
        WriteKind.PruneFeed => Result > 0,
        _ => true,
    };

    /// <summary>The calling thread's write, filled in, no result yet; the pointers must stay pinned until it is done.</summary>
    public static QueuedWrite<TErrors> ForThisThread(TErrors errors, WriteKind kind, byte* first, int firstLength, byte* second, int secondLength, WriteBatch? batch)
    {
        var write = s_current ??= new QueuedWrite<TErrors>();
        write.Errors = errors;
        write.Kind = kind;
        write._first = first;
        write._firstLength = firstLength;
        write._second = second;
        write._secondLength = secondLength;
        write.Batch = batch;
        write.Result = -1;
        write.Ticket = 0;
        write.Taken = false;
        write.Done = false;
        write.Failure = null;
        return write;
    }

    /// <summary>Wakes the write's caller from <see cref="Sleep"/> (or makes its next sleep return at once).</summary>
    public void Wake()
    {
        lock (_wake)
        {
            _woken = true;
            Monitor.Pulse(_wake);
        }
    }

    /// <summary>The caller sleeps until <see cref="Wake"/> or until <paramref name="timeout"/> passes (infinite: <see cref="Timeout.InfiniteTimeSpan"/>).</summary>
    public void Sleep(TimeSpan timeout)
    {
        lock (_wake)
        {
            if (!_woken)
            {
                Monitor.Wait(_wake, timeout);
            }

            _woken = false;
        }
    }

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

    /// <summary>The write's change-log record, built in <paramref name="record"/> (reused under the write lock).</summary>
    public ReadOnlySpan<byte> Describe(ChangeRecord record) => Kind switch
    {
        WriteKind.Put => record.Clear().Add(KeyChangeKind.Put, First).Bytes,
        WriteKind.Delete => record.Clear().Add(KeyChangeKind.Delete, First).Bytes,
        WriteKind.DeleteRange => record.Clear().Add(KeyChangeKind.DeleteRange, First, Second).Bytes,
        WriteKind.Batch => record.Clear().Add(Batch!).Bytes,
        _ => throw new InvalidOperationException($"A {Kind} write has no change-log record."),
    };

    /// <summary>Drops the references to the caller's batch and memory once the caller has its outcome.</summary>
    public void Clear()
    {
        Batch = null;
        _first = null;
        _second = null;
        Failure = null;
    }
}

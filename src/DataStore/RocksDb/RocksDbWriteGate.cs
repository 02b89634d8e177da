using DataStore.Sync;

namespace DataStore.RocksDb;

/// <summary>
/// Orders the store's writes: plain puts, deletes and batches that read nothing enter shared, so they run at once
/// and RocksDB groups them; a write that reads the store first (preconditions, counted or open-ended range deletes)
/// enters exclusive, so nothing is written between its reads and its commit.
/// </summary>
/// <remarks>
/// A shared entry is one interlocked increment of the entering thread's stripe of a <see cref="StripedCount"/> and one
/// read of the exclusive flag; it takes no lock and touches no line another core writes, so concurrent
/// writers meet only inside RocksDB. An exclusive entry takes a lock among exclusive writers, raises the flag (new
/// shared entries then wait on an event) and waits for the shared writers already in to leave. The increment and the
/// flag are each written with a full fence and read after it, so a shared writer either sees the flag or is counted
/// before the exclusive one reads the counters.
/// </remarks>
internal sealed class RocksDbWriteGate(string directory, TimeSpan timeout) : IDisposable
{
    private readonly Lock _exclusive = new();
    private readonly ManualResetEventSlim _open = new(initialState: true);
    private readonly StripedCount _shared = new();
    private int _closed; // 1 while an exclusive writer holds or drains the gate

    /// <summary>Enters, waiting up to the store's timeout; throws <see cref="StoreTimeoutException"/> past it.</summary>
    public void Enter(bool exclusive)
    {
        if (exclusive)
        {
            EnterExclusive();
            return;
        }

        var deadline = 0L;
        while (true)
        {
            _shared.Increment();
            if (Volatile.Read(ref _closed) == 0)
            {
                return;
            }

            _shared.Decrement();
            deadline = deadline == 0 ? Environment.TickCount64 + (long)timeout.TotalMilliseconds : deadline;
            if (!_open.Wait(Remaining(deadline)))
            {
                throw new StoreTimeoutException(directory, StoreBackend.RocksDb, timeout);
            }
        }
    }

    public void Exit(bool exclusive)
    {
        if (exclusive)
        {
            Volatile.Write(ref _closed, 0);
            _open.Set();
            _exclusive.Exit();
        }
        else
        {
            _shared.Decrement();
        }
    }

    public void Dispose() => _open.Dispose();

    private static int Remaining(long deadline) => (int)Math.Clamp(deadline - Environment.TickCount64, 0, int.MaxValue);

    private void EnterExclusive()
    {
        var deadline = Environment.TickCount64 + (long)timeout.TotalMilliseconds;
        if (!_exclusive.TryEnter(timeout))
        {
            throw new StoreTimeoutException(directory, StoreBackend.RocksDb, timeout);
        }

        _open.Reset();
        Interlocked.Exchange(ref _closed, 1);
        var wait = new SpinWait();
        while (_shared.Sum() != 0)
        {
            if (Environment.TickCount64 > deadline)
            {
                Exit(exclusive: true);
                throw new StoreTimeoutException(directory, StoreBackend.RocksDb, timeout);
            }

            wait.SpinOnce();
        }
    }
}

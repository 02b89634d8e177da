using System.Runtime.InteropServices;

namespace DataStore.RocksDb;

/// <summary>
/// Orders the store's writes: plain puts, deletes and batches that read nothing enter shared, so they run at once
/// and RocksDB groups them; a write that reads the store first (preconditions, counted or open-ended range deletes)
/// enters exclusive, so nothing is written between its reads and its commit.
/// </summary>
/// <remarks>
/// A shared entry is one interlocked increment of a counter of the entering thread's own (padded to its own cache
/// line) and one read of the exclusive flag; it takes no lock and touches no line another core writes, so concurrent
/// writers meet only inside RocksDB. An exclusive entry takes a lock among exclusive writers, raises the flag (new
/// shared entries then wait on an event) and waits for the shared writers already in to leave. The increment and the
/// flag are each written with a full fence and read after it, so a shared writer either sees the flag or is counted
/// before the exclusive one reads the counters.
/// </remarks>
internal sealed class RocksDbWriteGate(string directory, TimeSpan timeout) : IDisposable
{
    private const int Stripes = 8; // a power of two, at least the cores of a desktop writing at once

    [ThreadStatic]
    private static int t_stripe; // this thread's stripe + 1; 0 until its first shared entry

    private static int s_nextStripe;

    private readonly Lock _exclusive = new();
    private readonly ManualResetEventSlim _open = new(initialState: true);
    private readonly Stripe[] _shared = new Stripe[Stripes];
    private int _closed; // 1 while an exclusive writer holds or drains the gate

    /// <summary>Enters, waiting up to the store's timeout; throws <see cref="StoreTimeoutException"/> past it.</summary>
    public void Enter(bool exclusive)
    {
        if (exclusive)
        {
            EnterExclusive();
            return;
        }

        ref var count = ref _shared[StripeOfThisThread()].Count;
        var deadline = 0L;
        while (true)
        {
            Interlocked.Increment(ref count);
            if (Volatile.Read(ref _closed) == 0)
            {
                return;
            }

            Interlocked.Decrement(ref count);
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
            Interlocked.Decrement(ref _shared[StripeOfThisThread()].Count);
        }
    }

    public void Dispose() => _open.Dispose();

    private static int StripeOfThisThread()
    {
        var stripe = t_stripe;
        if (stripe == 0)
        {
            stripe = t_stripe = (Interlocked.Increment(ref s_nextStripe) & (Stripes - 1)) + 1;
        }

        return stripe - 1;
    }

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
        while (SharedWriters() != 0)
        {
            if (Environment.TickCount64 > deadline)
            {
                Exit(exclusive: true);
                throw new StoreTimeoutException(directory, StoreBackend.RocksDb, timeout);
            }

            wait.SpinOnce();
        }
    }

    private int SharedWriters()
    {
        var sum = 0;
        foreach (ref var stripe in _shared.AsSpan())
        {
            sum += Volatile.Read(ref stripe.Count);
        }

        return sum;
    }

    // One counter per cache line (128 bytes covers adjacent-line prefetching), so writers on different cores do not
    // take each other's lines.
    [StructLayout(LayoutKind.Explicit, Size = 128)]
    private struct Stripe
    {
        [FieldOffset(64)]
        public int Count;
    }
}

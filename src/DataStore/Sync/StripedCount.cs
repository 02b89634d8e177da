using System.Numerics;
using System.Runtime.InteropServices;

namespace DataStore.Sync;

/// <summary>
/// A count that many threads raise and lower and one thread rarely sums: one counter per stripe, each on a 128-byte
/// block of its own, and each thread always on the same stripe, so threads on different cores do not write the same
/// cache line (one shared counter bounces its line between the cores on every change).
/// </summary>
/// <remarks>
/// <see cref="Increment"/> and <see cref="Decrement"/> are interlocked, so full fences. A count raised on one thread may be
/// lowered on another: a stripe can then go below zero, and only <see cref="Sum"/> means anything (wrapping arithmetic,
/// so it stays right even past a stripe's overflow).
/// </remarks>
internal sealed class StripedCount
{
    // A power of two, at least the cores of a desktop, and not fewer than 8 (a thread pool's threads share them).
    private static readonly int Stripes = (int)BitOperations.RoundUpToPowerOf2((uint)Math.Clamp(Environment.ProcessorCount, 8, 64));

    [ThreadStatic]
    private static int t_stripe; // this thread's stripe + 1; 0 until its first change

    private static int s_nextStripe;

    private readonly Stripe[] _stripes = new Stripe[Stripes];

    /// <summary>Adds one on this thread's stripe.</summary>
    public void Increment() => Interlocked.Increment(ref _stripes[StripeOfThisThread()].Count);

    /// <summary>Takes one away on this thread's stripe.</summary>
    public void Decrement() => Interlocked.Decrement(ref _stripes[StripeOfThisThread()].Count);

    /// <summary>The stripes' sum, each read with acquire semantics (not one atomic read of them all).</summary>
    public int Sum()
    {
        var sum = 0;
        foreach (ref var stripe in _stripes.AsSpan())
        {
            sum = unchecked(sum + Volatile.Read(ref stripe.Count));
        }

        return sum;
    }

    private static int StripeOfThisThread()
    {
        var stripe = t_stripe;
        if (stripe == 0)
        {
            stripe = t_stripe = (Interlocked.Increment(ref s_nextStripe) & (Stripes - 1)) + 1;
        }

        return stripe - 1;
    }

    // 128 bytes covers the CPU's fetching of adjacent line pairs.
    [StructLayout(LayoutKind.Explicit, Size = 128)]
    private struct Stripe
    {
        [FieldOffset(64)]
        public int Count;
    }
}

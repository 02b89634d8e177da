using System.Diagnostics;

namespace DataStore.Sharing;

/// <summary>
/// Per-step timers of the batches written through the broker, in the process they run in (a client's steps in the
/// client, a session's in the owner): how many, how long in all, and how many bytes the step's thread allocated.
/// Off unless <see cref="Enable"/> was called (the test host's <c>batch-rate ... steps</c> does), so a store pays one
/// read of a static field per step.
/// </summary>
internal static class BrokerSteps
{
    private static readonly int Count = Enum.GetValues<BrokerStep>().Length;
    private static readonly long[] Calls = new long[Count];
    private static readonly long[] Ticks = new long[Count];
    private static readonly long[] Allocated = new long[Count];
    private static bool s_on;

    /// <summary>True once timing is on.</summary>
    public static bool On => Volatile.Read(ref s_on);

    /// <summary>Turns timing on for the rest of the process's life.</summary>
    public static void Enable() => Volatile.Write(ref s_on, true);

    /// <summary>Now, as a mark to time steps from (the default mark when timing is off).</summary>
    public static Mark Now() => On ? new Mark(Stopwatch.GetTimestamp(), GC.GetAllocatedBytesForCurrentThread()) : default;

    /// <summary>Starts timing <paramref name="step"/> until the returned timer is disposed; when timing is off, or <paramref name="timed"/> is false, the timer records nothing and costs nothing.</summary>
    public static StepTimer Time(BrokerStep step, bool timed = true) => new(step, timed ? Now() : default);

    /// <summary>Adds the time and allocations from <paramref name="from"/> to <paramref name="to"/> (marks of one thread) to <paramref name="step"/>; nothing when either is the default mark.</summary>
    public static void Record(BrokerStep step, Mark from, Mark to)
    {
        if (from.Timestamp == 0 || to.Timestamp == 0)
        {
            return;
        }

        Interlocked.Increment(ref Calls[(int)step]);
        Interlocked.Add(ref Ticks[(int)step], to.Timestamp - from.Timestamp);
        Interlocked.Add(ref Allocated[(int)step], to.AllocatedBytes - from.AllocatedBytes);
    }

    /// <summary>Records <paramref name="step"/> from <paramref name="since"/> to now; returns now, the next step's start (the default mark when <paramref name="since"/> is).</summary>
    public static Mark Lap(BrokerStep step, Mark since)
    {
        if (since.Timestamp == 0)
        {
            return default;
        }

        var now = Now();
        Record(step, since, now);
        return now;
    }

    /// <summary>The steps timed so far: count, total time and bytes allocated, for each step that ran.</summary>
    public static IReadOnlyList<(BrokerStep Step, long Calls, TimeSpan Total, long AllocatedBytes)> Read() =>
        Enum.GetValues<BrokerStep>()
            .Where(step => Volatile.Read(ref Calls[(int)step]) > 0)
            .Select(step => (step, Volatile.Read(ref Calls[(int)step]), Stopwatch.GetElapsedTime(0, Volatile.Read(ref Ticks[(int)step])),
                Volatile.Read(ref Allocated[(int)step])))
            .ToList();

    /// <summary>A point in time and the thread's allocation count there.</summary>
    internal readonly record struct Mark(long Timestamp, long AllocatedBytes);

    /// <summary>One step being timed (<see cref="Time"/>): disposing it adds the time and allocations since it started to the step, on the same thread.</summary>
    internal readonly struct StepTimer(BrokerStep step, Mark start) : IDisposable
    {
        public void Dispose()
        {
            if (start.Timestamp != 0)
            {
                Record(step, start, Now());
            }
        }
    }
}

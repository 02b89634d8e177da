using System.Runtime.InteropServices;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// The process's context switches so far, every thread's, exited ones included (<c>getrusage</c>, Linux): a voluntary
/// one is a thread that waited (a futex, I/O, a sleep), an involuntary one a thread the kernel preempted.
/// </summary>
public readonly partial record struct ContextSwitches(long Voluntary, long Involuntary)
{
    // struct rusage on 64-bit Linux: two timevals (4 longs), then 14 longs, of which ru_nvcsw and ru_nivcsw are the last two.
    private const int RusageLongs = 18;

    /// <summary>The counts now; zero where <c>getrusage</c> is not there.</summary>
    public static unsafe ContextSwitches Now()
    {
        if (!OperatingSystem.IsLinux())
        {
            return default;
        }

        var usage = stackalloc long[RusageLongs];
        return getrusage(0, usage) == 0 ? new ContextSwitches(usage[16], usage[17]) : default;
    }

    public static ContextSwitches operator -(ContextSwitches after, ContextSwitches before) =>
        new(after.Voluntary - before.Voluntary, after.Involuntary - before.Involuntary);

    [LibraryImport("libc", EntryPoint = "getrusage")]
    private static unsafe partial int getrusage(int who, long* usage);
}

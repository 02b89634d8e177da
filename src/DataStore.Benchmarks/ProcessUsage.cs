using System.Runtime.InteropServices;

namespace DataStore.Benchmarks;

/// <summary>
/// The process's CPU time and context switches so far (getrusage, RUSAGE_SELF: every thread, ended ones too; Linux): a
/// voluntary switch is a thread that waited (a futex, I/O, a sleep), an involuntary one a thread the kernel preempted.
/// </summary>
public readonly partial record struct ProcessUsage(double CpuMicroseconds, long Voluntary, long Involuntary)
{
    /// <summary>Reads the counts now; zero where <c>getrusage</c> is not there (not Linux).</summary>
    public static ProcessUsage Now()
    {
        if (!OperatingSystem.IsLinux())
        {
            return default;
        }

        Span<long> usage = stackalloc long[18]; // struct rusage on 64-bit Linux: two timevals, then 14 longs
        if (GetRusage(0, ref usage[0]) != 0)
        {
            throw new InvalidOperationException("getrusage failed");
        }

        return new ProcessUsage((usage[0] * 1e6) + usage[1] + (usage[2] * 1e6) + usage[3], usage[16], usage[17]);
    }

    /// <summary>CPU microseconds, and voluntary and involuntary context switches, per operation since <paramref name="before"/>.</summary>
    public (double CpuMicroseconds, double Voluntary, double Involuntary) PerOperation(ProcessUsage before, double operations) =>
        ((CpuMicroseconds - before.CpuMicroseconds) / operations, (Voluntary - before.Voluntary) / operations, (Involuntary - before.Involuntary) / operations);

    [LibraryImport("libc", EntryPoint = "getrusage")]
    private static partial int GetRusage(int who, ref long usage);
}

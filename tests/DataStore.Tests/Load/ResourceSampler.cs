using System.Diagnostics;

namespace DataStore.Tests.Load;

/// <summary>
/// Samples this process's managed heap, open handles and threads on a timer while a load runs, and judges the trend:
/// a leak grows with the work done, so the last third of the run must not sit well above the first third.
/// </summary>
public sealed class ResourceSampler : IDisposable
{
    private readonly List<Sample> _samples = [];
    private readonly Timer _timer;

    public ResourceSampler(TimeSpan every)
    {
        _timer = new Timer(_ => Take(), null, TimeSpan.Zero, every);
    }

    /// <summary>One reading: live managed bytes (without a forced collection), open handles, threads.</summary>
    public readonly record struct Sample(long ManagedBytes, int Handles, int Threads);

    /// <summary>The samples taken so far.</summary>
    public IReadOnlyList<Sample> Samples
    {
        get
        {
            lock (_samples)
            {
                return [.. _samples];
            }
        }
    }

    /// <summary>
    /// Fails when a count grows along the run: the lowest managed heap of the last third above twice the highest of the
    /// first third plus 64 MiB (the heap saws up and down, so its floor is what a leak raises), or the most handles or
    /// threads of the last third above the most of the first third plus a slack for pools and timers.
    /// </summary>
    public void AssertFlat(string context)
    {
        var samples = Samples;
        Assert.True(samples.Count >= 6, $"only {samples.Count} resource samples were taken ({context})");
        var third = samples.Count / 3;
        var first = samples.Take(third).ToList();
        var last = samples.Skip(samples.Count - third).ToList();
        var describe = $"{context}; samples (MiB/handles/threads): {string.Join(" ", samples.Select(s => $"{s.ManagedBytes >> 20}/{s.Handles}/{s.Threads}"))}";
        Assert.True(last.Min(s => s.ManagedBytes) <= (2 * first.Max(s => s.ManagedBytes)) + (64L << 20), $"the managed heap grew along the run: {describe}");
        Assert.True(last.Max(s => s.Handles) <= first.Max(s => s.Handles) + 32, $"open handles grew along the run: {describe}");
        Assert.True(last.Max(s => s.Threads) <= first.Max(s => s.Threads) + 16, $"threads grew along the run: {describe}");
    }

    public void Dispose()
    {
        using var stopped = new ManualResetEvent(false);
        _timer.Dispose(stopped);
        stopped.WaitOne();
    }

    private void Take()
    {
        using var process = Process.GetCurrentProcess();
        var sample = new Sample(GC.GetTotalMemory(false), OpenHandles(process), process.Threads.Count);
        lock (_samples)
        {
            _samples.Add(sample);
        }
    }

    // Linux lists open descriptors in /proc/self/fd; elsewhere the runtime's handle count.
    private static int OpenHandles(Process process) =>
        OperatingSystem.IsLinux() ? Directory.EnumerateFileSystemEntries("/proc/self/fd").Count() : process.HandleCount;
}

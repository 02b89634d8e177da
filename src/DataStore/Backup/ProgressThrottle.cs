using System.Diagnostics;

namespace DataStore.Backup;

/// <summary>Passes progress reports on at most about ten times a second, and always the last one.</summary>
internal sealed class ProgressThrottle(IProgress<StoreProgress>? inner) : IProgress<StoreProgress>
{
    private static readonly long Interval = Stopwatch.Frequency / 10;
    private long _last = -Interval;

    /// <summary>Reports <paramref name="value"/> unless another report went out less than 100 ms ago.</summary>
    public void Report(StoreProgress value)
    {
        var now = Stopwatch.GetTimestamp();
        if (inner is null || now - _last < Interval)
        {
            return;
        }

        _last = now;
        inner.Report(value);
    }

    /// <summary>Reports <paramref name="value"/> whatever the time (the first and final reports).</summary>
    public void ReportNow(StoreProgress value)
    {
        _last = Stopwatch.GetTimestamp();
        inner?.Report(value);
    }
}

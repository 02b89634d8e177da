using System.Diagnostics;

namespace DataStore;

/// <summary>Passes progress reports on at most ten times a second, plus the ones that must go out at once (a phase's start and end).</summary>
internal sealed class ProgressThrottle(IProgress<StoreProgress>? progress) : IProgress<StoreProgress>
{
    private static readonly long Interval = Stopwatch.Frequency / 10;
    private long _next;

    /// <summary>True when the caller asked for progress.</summary>
    public bool Enabled => progress is not null;

    /// <summary>Reports <paramref name="value"/> when a tenth of a second has passed since the last report.</summary>
    public void Report(StoreProgress value)
    {
        if (progress is null)
        {
            return;
        }

        var now = Stopwatch.GetTimestamp();
        if (now >= _next)
        {
            _next = now + Interval;
            progress.Report(value);
        }
    }

    /// <summary>Reports when a tenth of a second has passed since the last report.</summary>
    public void Report(StorePhase phase, long pairs, long bytes, long? totalPairs, long? totalBytes = null)
    {
        if (progress is not null)
        {
            Report(new StoreProgress(phase, pairs, bytes, totalPairs, totalBytes));
        }
    }

    /// <summary>Reports <paramref name="value"/> whatever the time since the last report; the next report may follow at once.</summary>
    public void ReportNow(StoreProgress value)
    {
        progress?.Report(value);
        _next = 0;
    }

    /// <summary>Reports the start or end of a phase whatever the time since the last report.</summary>
    public void ReportNow(StorePhase phase, long pairs, long bytes, long? totalPairs, long? totalBytes = null) =>
        ReportNow(new StoreProgress(phase, pairs, bytes, totalPairs, totalBytes));
}

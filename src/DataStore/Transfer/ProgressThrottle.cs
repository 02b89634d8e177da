using System.Diagnostics;

namespace DataStore.Transfer;

/// <summary>Passes progress reports on at most ten times a second, plus a final one per phase.</summary>
internal sealed class ProgressThrottle
{
    private static readonly long Interval = Stopwatch.Frequency / 10;
    private readonly IProgress<StoreProgress>? _progress;
    private long _next;

    public ProgressThrottle(IProgress<StoreProgress>? progress)
    {
        _progress = progress;
    }

    /// <summary>True when the caller asked for progress.</summary>
    public bool Enabled => _progress is not null;

    /// <summary>Reports when a tenth of a second has passed since the last report.</summary>
    public void Report(StorePhase phase, long pairs, long bytes, long? totalPairs, long? totalBytes = null)
    {
        if (_progress is null)
        {
            return;
        }

        var now = Stopwatch.GetTimestamp();
        if (now >= _next)
        {
            _next = now + Interval;
            _progress.Report(new StoreProgress(phase, pairs, bytes, totalPairs, totalBytes));
        }
    }

    /// <summary>Reports the end of a phase whatever the time since the last report; the next phase's first report follows at once.</summary>
    public void Final(StorePhase phase, long pairs, long bytes, long? totalPairs, long? totalBytes = null)
    {
        _progress?.Report(new StoreProgress(phase, pairs, bytes, totalPairs, totalBytes));
        _next = 0;
    }
}

using System.Diagnostics;

namespace DataStore.Cli.Progress;

/// <summary>
/// Progress as plain lines on stderr when it is redirected: the first report of each phase, then about one a second,
/// then the last state of each phase.
/// </summary>
internal sealed class ProgressLines(TextWriter error) : IProgress<StoreProgress>
{
    private static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);
    private readonly Lock _lock = new();
    private readonly Stopwatch _clock = Stopwatch.StartNew();
    private StorePhase? _phase;
    private TimeSpan _phaseStart;
    private TimeSpan _printed;
    private StoreProgress? _pending;

    public void Report(StoreProgress value)
    {
        lock (_lock)
        {
            var now = _clock.Elapsed;
            if (value.Phase != _phase)
            {
                PrintPending();
                _phase = value.Phase;
                _phaseStart = now;
                Print(value, now);
            }
            else if (now - _printed >= Interval)
            {
                Print(value, now);
            }
            else
            {
                _pending = value;
            }
        }
    }

    /// <summary>Prints the last state not printed yet.</summary>
    public void Complete()
    {
        lock (_lock)
        {
            PrintPending();
        }
    }

    private void PrintPending()
    {
        if (_pending is { } pending)
        {
            Print(pending, _clock.Elapsed);
        }
    }

    private void Print(StoreProgress value, TimeSpan now)
    {
        error.WriteLine(ProgressText.Line(value, now - _phaseStart));
        error.Flush();
        _printed = now;
        _pending = null;
    }
}

using System.Diagnostics;
using System.Globalization;

namespace DataStore.Sharing;

/// <summary>
/// How long a client waits for its owner's answer. The connection's receive timeout is a short <see cref="Step"/>; at
/// each step the wait goes on unless the owner process has been stopped (SIGSTOP, Ctrl+Z in a terminal, a debugger) for
/// the store's timeout, or the whole wait has passed the bound for a hung owner. A busy owner is never stopped, so a long
/// request (a compaction, a 16 MiB value) still gets its answer; a stopped one no longer holds its clients for the bound.
/// </summary>
/// <remarks>Whether a process is stopped is read from <c>/proc</c> on Linux; elsewhere only the bound ends a wait.</remarks>
internal sealed class AnswerWait(int? ownerProcessId, TimeSpan stoppedLimit, TimeSpan bound)
{
    private static readonly TimeSpan ShortestStep = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan LongestStep = TimeSpan.FromSeconds(1);

    private long _started;
    private long _stoppedSince;

    /// <summary>The receive timeout of one step: half the stopped limit, between 50 ms and 1 s.</summary>
    public TimeSpan Step { get; } = TimeSpan.FromTicks(Math.Clamp(stoppedLimit.Ticks / 2, ShortestStep.Ticks, LongestStep.Ticks));

    /// <summary>Starts the wait for one answer.</summary>
    public void Start()
    {
        _started = Stopwatch.GetTimestamp();
        _stoppedSince = 0;
    }

    /// <summary>Called when a step passed with nothing received: returns to wait on, or throws when the wait is over.</summary>
    /// <exception cref="TimeoutException">The owner has been stopped for the stopped limit, or no answer came within the bound.</exception>
    public void StepPassed()
    {
        var now = Stopwatch.GetTimestamp();
        if (Stopwatch.GetElapsedTime(_started, now) >= bound)
        {
            throw new TimeoutException(string.Create(CultureInfo.InvariantCulture,
                $"the owner process {ownerProcessId} gave no answer within {bound.TotalSeconds:0.#} s"));
        }

        if (ownerProcessId is not { } owner || !OwnerProcess.IsStopped(owner))
        {
            _stoppedSince = 0;
            return;
        }

        if (_stoppedSince == 0)
        {
            _stoppedSince = now;
        }

        if (Stopwatch.GetElapsedTime(_stoppedSince, now) >= stoppedLimit)
        {
            throw new TimeoutException(string.Create(CultureInfo.InvariantCulture,
                $"the owner process {owner} has been stopped (SIGSTOP, Ctrl+Z or a debugger) for at least {stoppedLimit.TotalSeconds:0.###} s, the store's timeout"));
        }
    }
}

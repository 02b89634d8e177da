using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// What a split preparation (<see cref="SplitPreparation"/>) did holding the write lock: each kind of step's count and
/// longest hold, and how many directory or file system syncs it made under the lock (event 82 logs them; a test counts
/// the syncs). One preparation's, used by its one thread.
/// </summary>
internal sealed class PreparationHolds
{
    private readonly List<(string Step, int Count, double Longest)> _steps = [];

    /// <summary>True while a step runs holding the write lock.</summary>
    public bool Held { get; private set; }

    /// <summary>Syncs made holding the write lock.</summary>
    public int SyncsUnderLock { get; private set; }

    /// <summary>Runs <paramref name="body"/> (called holding the write lock), timing it as one hold of <paramref name="step"/>.</summary>
    public bool Time(string step, Func<bool> body)
    {
        var begun = Stopwatch.GetTimestamp();
        Held = true;
        try
        {
            return body();
        }
        finally
        {
            Held = false;
            Note(step, Stopwatch.GetElapsedTime(begun).TotalMilliseconds);
        }
    }

    /// <summary>Notes one sync (of a directory or the file system) about to run.</summary>
    public void NoteSync()
    {
        if (Held)
        {
            SyncsUnderLock++;
        }
    }

    /// <summary>The steps as "link 17 (longest 3.1 ms), ..." in the order they first ran.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        foreach (var (step, count, longest) in _steps)
        {
            text.Append(CultureInfo.InvariantCulture, $"{(text.Length > 0 ? ", " : "")}{step} {count} (longest {longest:F1} ms)");
        }

        return text.ToString();
    }

    private void Note(string step, double milliseconds)
    {
        var i = _steps.FindIndex(s => s.Step == step);
        if (i < 0)
        {
            _steps.Add((step, 1, milliseconds));
        }
        else
        {
            _steps[i] = (step, _steps[i].Count + 1, Math.Max(_steps[i].Longest, milliseconds));
        }
    }
}

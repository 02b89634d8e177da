using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace DataStore.FileSystem;

/// <summary>
/// An opt-in trace of where a slow single Put's time goes (issue 23 item 11): with the environment variable
/// <c>DATASTORE_FILESYSTEM_TRACE_MS</c> set to a number of milliseconds, every Put that takes at least that long is
/// logged (<see cref="FileSystemLog.SlowPut"/>) with the time of each step. Off by default: then each mark is one
/// read of a static field the JIT folds away.
/// </summary>
internal static class PutTrace
{
    private static readonly string[] Names =
        ["write", "fsync", "lock wait", "scan check", "split", "pre-image", "rename", "unlock", "sync"];

    private static readonly double ThresholdMilliseconds = ReadThreshold();

    [ThreadStatic]
    private static long[]? t_marks;

    /// <summary>True when slow Puts are traced.</summary>
    public static readonly bool Enabled = ThresholdMilliseconds >= 0;

    /// <summary>Starts timing a Put on this thread.</summary>
    public static void Begin()
    {
        if (!Enabled)
        {
            return;
        }

        var marks = t_marks ??= new long[Names.Length + 1];
        Array.Clear(marks);
        marks[0] = Stopwatch.GetTimestamp();
    }

    /// <summary>Notes that <paramref name="step"/> of this thread's Put ended now.</summary>
    public static void Mark(PutStep step)
    {
        if (Enabled && t_marks is { } marks && marks[0] != 0)
        {
            marks[(int)step + 1] = Stopwatch.GetTimestamp();
        }
    }

    /// <summary>Ends this thread's Put; returns its steps when it took at least the threshold, else null.</summary>
    public static string? End(out double milliseconds)
    {
        milliseconds = 0;
        if (!Enabled || t_marks is not { } marks || marks[0] == 0)
        {
            return null;
        }

        milliseconds = Stopwatch.GetElapsedTime(marks[0]).TotalMilliseconds;
        var begun = marks[0];
        marks[0] = 0;
        if (milliseconds < ThresholdMilliseconds)
        {
            return null;
        }

        // Steps are listed in the order they happened (a step that did not happen has no mark).
        var steps = new List<(long At, string Name)>();
        for (var i = 1; i < marks.Length; i++)
        {
            if (marks[i] != 0)
            {
                steps.Add((marks[i], Names[i - 1]));
            }
        }

        steps.Sort();
        var text = new StringBuilder();
        var previous = begun;
        foreach (var (at, name) in steps)
        {
            text.Append(CultureInfo.InvariantCulture, $"{(text.Length > 0 ? ", " : "")}{name} {Stopwatch.GetElapsedTime(previous, at).TotalMilliseconds:F1}");
            previous = at;
        }

        return text.ToString();
    }

    private static double ReadThreshold() =>
        double.TryParse(Environment.GetEnvironmentVariable("DATASTORE_FILESYSTEM_TRACE_MS"), NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && value >= 0
            ? value
            : -1;
}

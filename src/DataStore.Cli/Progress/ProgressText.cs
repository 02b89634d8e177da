using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace DataStore.Cli.Progress;

/// <summary>How progress and summaries read: verbs, counts with thousands separators, rates, ETAs and elapsed times.</summary>
internal static class ProgressText
{
    /// <summary>The verb a progress line starts with, such as "exporting".</summary>
    public static string Verb(StorePhase phase) => phase switch
    {
        StorePhase.Counting => "counting",
        StorePhase.Exporting => "exporting",
        StorePhase.Importing => "importing",
        StorePhase.Copying => "copying",
        StorePhase.Verifying => "verifying",
        StorePhase.BackingUp => "backing up",
        StorePhase.Compacting => "compacting",
        _ => phase.ToString().ToLowerInvariant(),
    };

    /// <summary>True when a report counts bytes rather than pairs (a file copy: backup, compact).</summary>
    public static bool InBytes(StoreProgress progress) =>
        progress.TotalPairs is null && progress.Pairs == 0
        && (progress.Bytes > 0 || progress.TotalBytes is not null || progress.Phase is StorePhase.BackingUp or StorePhase.Compacting);

    /// <summary>What a report has done and will do, in its unit.</summary>
    public static (long Done, long? Total) Amounts(StoreProgress progress, bool inBytes) =>
        inBytes ? (progress.Bytes, progress.TotalBytes) : (progress.Pairs, progress.TotalPairs);

    /// <summary>"1,234,567" or "1.2 MiB".</summary>
    public static string Amount(long value, bool inBytes) => inBytes ? StoreStatistics.Readable(value) : Count(value);

    /// <summary>A count with thousands separators.</summary>
    public static string Count(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>"95,000 pairs/s" or "9.5 MiB/s".</summary>
    public static string Rate(double perSecond, bool inBytes) =>
        inBytes ? $"{StoreStatistics.Readable((long)perSecond)}/s" : $"{Count((long)perSecond)} pairs/s";

    /// <summary>"9s", "2m05s" or "1h02m".</summary>
    public static string Duration(TimeSpan time) => time.TotalSeconds switch
    {
        < 60 => string.Create(CultureInfo.InvariantCulture, $"{Math.Ceiling(time.TotalSeconds):0}s"),
        < 3600 => string.Create(CultureInfo.InvariantCulture, $"{(int)time.TotalMinutes}m{time.Seconds:00}s"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{(int)time.TotalHours}h{time.Minutes:00}m"),
    };

    /// <summary>"0.42 s" since <paramref name="clock"/> started.</summary>
    public static string Elapsed(Stopwatch clock) => string.Create(CultureInfo.InvariantCulture, $"{clock.Elapsed.TotalSeconds:0.00} s");

    /// <summary>"1,000 pairs (12.3 KiB)" for a digest.</summary>
    public static string Pairs(StoreDigest digest) => $"{Count(digest.Pairs)} pairs ({StoreStatistics.Readable(digest.Bytes)})";

    /// <summary>
    /// One plain progress line, such as <c>exporting 120,000/1,000,000 pairs (12%) 95,000 pairs/s ETA 9s</c>;
    /// <paramref name="elapsed"/> is the time since the phase began.
    /// </summary>
    public static string Line(StoreProgress progress, TimeSpan elapsed)
    {
        var inBytes = InBytes(progress);
        var (done, total) = Amounts(progress, inBytes);
        var text = new StringBuilder(Verb(progress.Phase)).Append(' ').Append(Amount(done, inBytes));
        if (total is > 0)
        {
            text.Append('/').Append(Amount(total.Value, inBytes));
        }

        text.Append(inBytes ? "" : " pairs");
        if (total is > 0)
        {
            text.Append(CultureInfo.InvariantCulture, $" ({Math.Min(100, done * 100 / total.Value)}%)");
        }

        var rate = elapsed.TotalSeconds >= 0.05 ? done / elapsed.TotalSeconds : 0;
        if (rate > 0)
        {
            text.Append(' ').Append(Rate(rate, inBytes));
            if (total > done)
            {
                text.Append(" ETA ").Append(Duration(TimeSpan.FromSeconds((total.Value - done) / rate)));
            }
        }

        return text.ToString();
    }
}

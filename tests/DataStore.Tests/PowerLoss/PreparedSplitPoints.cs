using DataStore.FileSystem;
using DataStore.Platform;

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// Where a FileSystem store's power-loss log crosses a split prepared beside the writes (ADR 0008): the writer child
/// lowers the directory limit to <see cref="SplitLimit"/>, so its leaves split every few dozen keys, and each round is
/// also cut inside one preparation: while its links are made or its publish rounds sync what they relinked (before the
/// marker), just before the marker is written (every round's relinks synced, outside the write lock), just after it
/// (before the leaf is fsynced), and while the leaf's old names are removed.
/// </summary>
public static class PreparedSplitPoints
{
    /// <summary>The writer's directory limit: a leaf gets its split prepared from 12 files (it writes at least 48 times).</summary>
    public const string SplitLimit = "16";

    private const long Creates = 0x40; // O_CREAT

    public static IEnumerable<int> Choose(IReadOnlyList<LogRecord> records, Random random)
    {
        if (!PosixLinks.Available)
        {
            return []; // splits are prepared on Linux only
        }

        var windows = Windows(records);
        Assert.True(windows.Count > 0, "the writer prepared no split: the log has no split.prepare record followed by a marker");
        var (start, marker, end) = windows[random.Next(windows.Count)];
        return [random.Next(start + 1, marker + 1), marker, marker + 1, Math.Min(random.Next(marker + 2, end + 2), records.Count)];
    }

    /// <summary>Each preparation that published: the record's creation, the marker's creation and the record's removal or the log's end (log indexes).</summary>
    private static List<(int Start, int Marker, int End)> Windows(IReadOnlyList<LogRecord> records)
    {
        var windows = new List<(int, int, int)>();
        int? start = null, marker = null;
        foreach (var record in records)
        {
            if (record.Kind == LogKind.Open && (record.A & Creates) != 0 && record.Path == PreparedSplitRecord.FileName && start is null)
            {
                (start, marker) = (record.Index, null);
            }
            else if (record.Kind == LogKind.Open && (record.A & Creates) != 0 && start is not null && marker is null && record.Path.EndsWith("/" + KeyNames.SplitMarker, StringComparison.Ordinal))
            {
                marker = record.Index;
            }
            else if (record.Kind == LogKind.Unlink && record.Path == PreparedSplitRecord.FileName && start is not null)
            {
                if (marker is not null)
                {
                    windows.Add((start.Value, marker.Value, Math.Min(record.Index, records.Count - 1)));
                }

                start = null;
            }
        }

        if (start is not null && marker is not null)
        {
            windows.Add((start.Value, marker.Value, records.Count - 1)); // the store closed before the old names went
        }

        return windows;
    }
}

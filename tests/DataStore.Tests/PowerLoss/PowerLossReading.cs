using System.Globalization;

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// What the reader process found in one replayed store: an error, or its pairs (hex) and verify's problems, and with the
/// change feed its latest sequence, every logged change in order (sequence, kind, key hex, end hex) or why they could not
/// be read, and the sequence the reader's own commit got afterwards.
/// </summary>
public sealed record PowerLossReading(string? Error, Dictionary<string, string> Pairs, string Problems)
{
    /// <summary>The logged changes in commit order (empty without the change feed).</summary>
    public List<(long Sequence, string Kind, string Key, string End)> Events { get; } = [];

    /// <summary>The store's latest sequence as the reader found it; null without the change feed.</summary>
    public long? FeedLatest { get; set; }

    /// <summary>The sequence of the reader's own commit, made after it read the store; null without the change feed.</summary>
    public long? Next { get; set; }

    /// <summary>Why the change log could not be read, or null.</summary>
    public string? EventsError { get; set; }

    /// <summary>The sequence of the resynchronize event a subscriber from the first commit got (a restarted log), or null.</summary>
    public long? Resync { get; set; }

    /// <summary>With <see cref="Resync"/>: the next commit after it, once the reader put <c>feed-check</c> (kind, sequence, changes).</summary>
    public string? AfterResync { get; set; }

    /// <summary>
    /// What went wrong when the reader, after reading the store, wrote new keys and a batch, closed, reopened and read them
    /// back (<c>REWRITE</c>; empty when all was well); null where that was not asked or the store did not open.
    /// </summary>
    public string? Rewrite { get; set; }

    /// <summary>
    /// Opens and reads each store in a <c>DataStore.TestHost power-loss-read</c> child; when the child dies on a store
    /// (a crash of the reading process), that store's reading is the error and a new child reads the rest. The child
    /// runs as after a restart of the machine: <c>DATASTORE_BOOT_ID</c> names a boot other than the writer's. The stores
    /// whose index is in <paramref name="rewrite"/> are also written after they were read (<see cref="Rewrite"/>).
    /// </summary>
    public static List<PowerLossReading> ReadAll(StoreBackend backend, IReadOnlyList<string> stores, ISet<int>? rewrite = null)
    {
        var readings = new List<PowerLossReading>();
        var arguments = stores.Select((s, i) => rewrite?.Contains(i) == true ? "+" + s : s).ToList();
        while (readings.Count < stores.Count)
        {
            var (code, output) = ChildProcess.Run(["power-loss-read", "-", backend.ToString(), "-", .. arguments.Skip(readings.Count)], TimeSpan.FromMinutes(5),
                ["env", $"DATASTORE_BOOT_ID=after-a-power-loss-{Guid.NewGuid():N}"]);
            var parsed = Parse(output);
            readings.AddRange(parsed);
            if (readings.Count < stores.Count)
            {
                var tail = string.Join(" / ", output.Split('\n').TakeLast(5));
                readings.Add(new PowerLossReading($"the reading process died (exit code {code}) on this store: {tail}", [], ""));
            }
        }

        return readings;
    }

    private static List<PowerLossReading> Parse(string output)
    {
        var readings = new List<PowerLossReading>();
        string? error = null, problems = "", eventsError = null, afterResync = null, rewritten = null;
        long? resync = null;
        var pairs = new Dictionary<string, string>(StringComparer.Ordinal);
        var events = new List<(long, string, string, string)>();
        long? feed = null, next = null;
        foreach (var line in output.Split('\n'))
        {
            if (line.StartsWith("STORE ", StringComparison.Ordinal))
            {
                (error, problems, pairs, events, eventsError, feed, next, resync, afterResync, rewritten) = (null, "", new Dictionary<string, string>(StringComparer.Ordinal), [], null, null, null, null, null, null);
            }
            else if (line.StartsWith("PAIR ", StringComparison.Ordinal))
            {
                var parts = line.Split(' ');
                pairs[parts[1]] = parts[2];
            }
            else if (line.StartsWith("EVENT ", StringComparison.Ordinal))
            {
                var parts = line.Split(' ');
                events.Add((Number(parts[1]), parts[2], parts[3], parts.Length > 4 ? parts[4] : ""));
            }
            else if (line.StartsWith("FEED ", StringComparison.Ordinal))
            {
                feed = Number(line[5..]);
            }
            else if (line.StartsWith("NEXT ", StringComparison.Ordinal))
            {
                next = Number(line[5..]);
            }
            else if (line.StartsWith("RESYNC ", StringComparison.Ordinal))
            {
                resync = long.Parse(line[7..], CultureInfo.InvariantCulture);
            }
            else if (line.StartsWith("AFTER-RESYNC ", StringComparison.Ordinal))
            {
                afterResync = line[13..];
            }
            else if (line.StartsWith("REWRITE", StringComparison.Ordinal))
            {
                rewritten = line.Length > 8 ? line[8..] : "";
            }
            else if (line.StartsWith("EVENTS-ERROR ", StringComparison.Ordinal))
            {
                eventsError = line[13..];
            }
            else if (line.StartsWith("ERROR ", StringComparison.Ordinal))
            {
                error = line[6..];
            }
            else if (line.StartsWith("VERIFY", StringComparison.Ordinal))
            {
                problems = line.Length > 7 ? line[7..] : "";
            }
            else if (line.StartsWith("END ", StringComparison.Ordinal))
            {
                _ = int.Parse(line[4..], CultureInfo.InvariantCulture);
                var reading = new PowerLossReading(error, pairs, problems) { EventsError = eventsError, FeedLatest = feed, Next = next, Resync = resync, AfterResync = afterResync, Rewrite = rewritten };
                reading.Events.AddRange(events);
                readings.Add(reading);
            }
        }

        return readings;
    }

    private static long Number(string text) => long.Parse(text, NumberStyles.None, CultureInfo.InvariantCulture);
}

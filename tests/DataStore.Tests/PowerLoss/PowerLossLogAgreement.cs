using DataStore.ChangeFeed;

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// With the change feed on, the log and the data of a replayed store must agree (ADR 0020), judged against the commits the
/// writer made (each acknowledgement names its commit's sequence): the log numbers its commits 1, 2, ... with no hole up to
/// its latest; each record is the change the writer committed under that number (so no record of a change that was never
/// made, and commit order); replaying the records from the first gives exactly the store's pairs, values included (every
/// change the data kept has its record, and no record without its change); and the next commit, made by the reader, gets a
/// number above every one acknowledged before the power loss, which a subscriber may already have seen. Only where
/// <c>restartAllowed</c> (a Relaxed store, ADR 0020 *Relaxed* and *The log's restart after a power loss*) may the log have
/// been restarted instead: then a subscriber from the first commit gets the records that survived (a whole log as above,
/// none where the restart replaced the log), then one resynchronize event at least the restart gap past them, and the next
/// commit after it is delivered.
/// </summary>
public static class PowerLossLogAgreement
{
    /// <summary>Part of the message when a sequence a subscriber may have seen is given to a different commit.</summary>
    public const string GivenAgain = "given again to a new commit";

    /// <param name="subscriberSaw">The highest sequence a subscriber saw before the point (0 for none): it may be above every acknowledged one.</param>
    public static List<string> Check(PowerLossReading reading, IReadOnlyList<PowerLossAck> acks, int point, bool restartAllowed, long subscriberSaw = 0)
    {
        if (reading.FeedLatest is not { } latest)
        {
            return []; // no change feed: the data is judged on its own
        }

        if (reading.EventsError is { } error)
        {
            return [$"the change log could not be read: {error}"];
        }

        var failures = reading.Resync is { } resync ? RestartProblems(reading, acks, resync, restartAllowed) : LogProblems(reading, acks, latest);
        var acknowledged = acks.Where(a => a.Index < point && a.Sequence > 0).Select(a => a.Sequence).DefaultIfEmpty().Max();
        var seen = Math.Max(acknowledged, subscriberSaw);
        if (reading.Next <= seen)
        {
            var made = acks.Where(a => a.Sequence > 0).ToDictionary(a => a.Sequence);
            var how = reading.Next <= acknowledged ? $"acknowledged before it (up to {acknowledged}), so a subscriber may have seen it" : $"seen by a subscriber before it (up to {seen}) and not yet acknowledged";
            failures.Add($"sequence {reading.Next} {GivenAgain} after the power loss: commit {reading.Next} ({(made.TryGetValue(reading.Next.Value, out var ack) ? Changes(ack) : "not marked")}) was {how}");
        }

        return failures;
    }

    /// <summary>The log read from its first record: numbered without a hole, each record the writer's commit, replaying to the store's pairs.</summary>
    private static List<string> LogProblems(PowerLossReading reading, IReadOnlyList<PowerLossAck> acks, long latest)
    {
        var failures = new List<string>();
        var made = acks.Where(a => a.Sequence > 0).ToDictionary(a => a.Sequence);
        var commits = reading.Events.GroupBy(e => e.Sequence).ToList();
        var model = new SortedDictionary<string, string?>(StringComparer.Ordinal);
        var expected = 1L;
        foreach (var commit in commits)
        {
            if (commit.Key != expected)
            {
                failures.Add($"the log goes from commit {expected - 1} to commit {commit.Key}");
            }

            expected = commit.Key + 1;
            var ack = made.GetValueOrDefault(commit.Key);
            var logged = string.Join(", ", commit.Select(e => $"{e.Kind} {e.Key}"));
            if (ack is null || logged != Changes(ack))
            {
                failures.Add($"the log's commit {commit.Key} is {logged}, which the writer never committed as {commit.Key} ({(ack is null ? "none" : Changes(ack))})");
            }

            foreach (var (_, kind, key, end) in commit)
            {
                Apply(model, kind, key, end, ack is null ? null : PowerLossJudge.Hex(ack.Number));
            }
        }

        if (latest != expected - 1)
        {
            failures.Add($"the log's latest sequence is {latest} and its last record {expected - 1}");
        }

        failures.AddRange(model.Where(m => !reading.Pairs.ContainsKey(m.Key)).Take(5).Select(m => $"the log says {m.Key} is there and the store does not hold it"));
        failures.AddRange(reading.Pairs.Where(p => !model.ContainsKey(p.Key)).Take(5).Select(p => $"the store holds {p.Key} and the log has no commit that left it there"));
        failures.AddRange(reading.Pairs.Where(p => model.TryGetValue(p.Key, out var v) && v is not null && v != p.Value).Take(5)
            .Select(p => $"the store holds {p.Key} = {p.Value} and the log's last commit of that key wrote {model[p.Key]}"));

        return failures;
    }

    private static List<string> RestartProblems(PowerLossReading reading, IReadOnlyList<PowerLossAck> acks, long resync, bool restartAllowed)
    {
        var problems = new List<string>();
        if (!restartAllowed)
        {
            problems.Add($"a subscriber from the first commit was told to resynchronize (at {resync}): only a Relaxed log restarts after a power loss");
        }

        // The records before the restart (none where the restart replaced the log, as on FileSystem) are judged as a whole log.
        var before = reading.Events.Count > 0 ? reading.Events[^1].Sequence : 0;
        if (before > 0)
        {
            problems.AddRange(LogProblems(reading, acks, before));
        }

        if (resync < before + ChangeLogRestart.Gap)
        {
            problems.Add($"the restarted log's sequence {resync} is not past the old log's ({before}) by the restart gap");
        }

        var expected = $"Commit {resync + 1} Put:{Convert.ToHexString("feed-check"u8)}";
        if (reading.AfterResync != expected)
        {
            problems.Add($"after the resynchronize event, a Put was delivered as '{reading.AfterResync}', not '{expected}'");
        }

        return problems;
    }

    /// <summary>The changes the writer's acknowledged commit made, as the reader prints them (kind and key hex).</summary>
    private static string Changes(PowerLossAck ack) => ack.Kind switch
    {
        'P' => $"Put {PowerLossJudge.Hex("put", ack.Number, "")}",
        'B' => $"Put {PowerLossJudge.Hex("batch", ack.Number, "a")}, Put {PowerLossJudge.Hex("batch", ack.Number, "b")}",
        'D' => $"Delete {PowerLossJudge.Hex("put", ack.Number, "")}",
        'X' => $"DeleteRange {PowerLossJudge.Hex("batch", ack.Number, "")}",
        _ => $"Put {PowerLossJudge.Hex("hot", ack.Hot, "")}",
    };

    /// <summary>Applies one logged change to the model of the store's pairs; a put's value is unknown (null) for a commit the writer never made.</summary>
    private static void Apply(SortedDictionary<string, string?> model, string kind, string key, string end, string? value)
    {
        if (kind == nameof(KeyChangeKind.Put))
        {
            model[key] = value;
            return;
        }

        var removed = kind == nameof(KeyChangeKind.Delete)
            ? [key]
            : model.Keys.Where(k => string.CompareOrdinal(k, key) >= 0 && (end.Length == 0 || string.CompareOrdinal(k, end) < 0)).ToList();
        removed.ForEach(k => model.Remove(k));
    }
}

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// With the change feed on, the log and the data of a replayed store must agree (ADR 0020): replaying every logged change
/// from the first gives exactly the store's keys, so every record's change is in the data and no key is there without
/// the record of the commit that wrote it (an acknowledged write the data kept has its record). Only where
/// <c>restartAllowed</c> (a FileSystem store a Relaxed writer logged into without syncs, ADR 0020 *Relaxed*) may the log
/// have been restarted instead: then a subscriber from the first commit gets one resynchronize event and nothing before
/// it, numbered past every sequence the old log could have given, and the next commit after it is delivered.
/// </summary>
public static class PowerLossLogAgreement
{
    public static List<string> Check(PowerLossReading reading, bool restartAllowed)
    {
        if (reading.EventsError is { } error)
        {
            return [$"the change log could not be read: {error}"];
        }

        if (reading.Resync is { } resync)
        {
            return RestartProblems(reading, resync, restartAllowed);
        }

        if (reading.Events.Count == 0)
        {
            return []; // no change feed, or nothing logged: the data is judged on its own
        }

        var model = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var (kind, key, end) in reading.Events)
        {
            _ = kind switch
            {
                nameof(KeyChangeKind.Put) => model.Add(key),
                nameof(KeyChangeKind.Delete) => model.Remove(key),
                _ => model.RemoveWhere(k => string.CompareOrdinal(k, key) >= 0 && (end.Length == 0 || string.CompareOrdinal(k, end) < 0)) >= 0,
            };
        }

        var stored = new SortedSet<string>(reading.Pairs.Keys, StringComparer.Ordinal);
        var withoutData = model.Except(stored).Take(5).Select(k => $"the log says {k} is there and the store does not hold it");
        var withoutRecord = stored.Except(model).Take(5).Select(k => $"the store holds {k} and the log has no commit that left it there");
        return [.. withoutData, .. withoutRecord];
    }

    private static List<string> RestartProblems(PowerLossReading reading, long resync, bool restartAllowed)
    {
        var problems = new List<string>();
        if (!restartAllowed)
        {
            problems.Add($"a subscriber from the first commit was told to resynchronize (at {resync}): only a Relaxed FileSystem log restarts after a power loss");
        }

        if (reading.Events.Count > 0)
        {
            problems.Add($"{reading.Events.Count} changes were delivered before the resynchronize event of a restarted log");
        }

        if (resync <= DataStore.ChangeFeed.FileSystem.ChangeLogFiles.RestartGap)
        {
            problems.Add($"the restarted log's sequence {resync} is not past the old log's by the restart gap");
        }

        var expected = $"Commit {resync + 1} Put:{Convert.ToHexString("feed-check"u8)}";
        if (reading.AfterResync != expected)
        {
            problems.Add($"after the resynchronize event, a Put was delivered as '{reading.AfterResync}', not '{expected}'");
        }

        return problems;
    }
}

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// With the change feed on, the log and the data of a replayed store must agree (ADR 0020): replaying every logged change
/// from the first gives exactly the store's keys, so every record's change is in the data and no key is there without
/// the record of the commit that wrote it (an acknowledged write the data kept has its record).
/// </summary>
public static class PowerLossLogAgreement
{
    public static List<string> Check(PowerLossReading reading)
    {
        if (reading.EventsError is { } error)
        {
            return [$"the change log could not be read: {error}"];
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
}

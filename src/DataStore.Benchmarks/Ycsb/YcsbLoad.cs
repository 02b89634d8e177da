namespace DataStore.Benchmarks.Ycsb;

/// <summary>YCSB's load phase: records 0 to N-1 with 100-byte values from a pool, 1,000 per <see cref="IYcsbTarget.Load"/>.</summary>
public static class YcsbLoad
{
    /// <summary>Loads <paramref name="records"/> records into <paramref name="target"/>, the same values for the same seed on every target.</summary>
    public static void Into(IYcsbTarget target, int records, byte[] valuePool)
    {
        var random = new Random(5);
        var pairs = new List<(byte[] Key, byte[] Value)>(1_000);
        for (var record = 0; record < records; record++)
        {
            pairs.Add((YcsbKeys.Of(record), valuePool.AsSpan(random.Next(valuePool.Length - YcsbKeys.ValueSize), YcsbKeys.ValueSize).ToArray()));
            if (pairs.Count == 1_000 || record == records - 1)
            {
                target.Load(pairs);
                pairs.Clear();
            }
        }
    }
}

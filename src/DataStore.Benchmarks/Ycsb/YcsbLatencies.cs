using DataStore.Benchmarks.Latency;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>One latency histogram per <see cref="YcsbOperation"/>: a worker's own while it runs, or the merge of several.</summary>
public sealed class YcsbLatencies
{
    private readonly LatencyHistogram[] _histograms = Enum.GetValues<YcsbOperation>().Select(_ => new LatencyHistogram()).ToArray();

    /// <summary>The histogram of <paramref name="operation"/>.</summary>
    public LatencyHistogram this[YcsbOperation operation] => _histograms[(int)operation];

    /// <summary>Merges the latencies of <paramref name="parts"/> into a new set.</summary>
    public static YcsbLatencies Merge(IEnumerable<YcsbLatencies> parts)
    {
        var merged = new YcsbLatencies();
        foreach (var part in parts)
        {
            for (var i = 0; i < merged._histograms.Length; i++)
            {
                merged._histograms[i].Add(part._histograms[i]);
            }
        }

        return merged;
    }

    /// <summary>Forgets every latency recorded.</summary>
    public void Clear()
    {
        foreach (var histogram in _histograms)
        {
            histogram.Clear();
        }
    }
}

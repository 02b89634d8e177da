using System.Diagnostics;
using System.Numerics;

namespace DataStore.Benchmarks.Latency;

/// <summary>
/// Operation latencies in fixed log-scale buckets: exact below 16 ns, then 16 buckets per power of two (each at most
/// 1/16 wide, so a percentile read from it is within about 3% of the true value), up to about 18 minutes.
/// </summary>
/// <remarks>
/// Recording allocates nothing and takes no lock: one histogram belongs to one thread while it records;
/// <see cref="Add"/> merges finished histograms.
/// </remarks>
public sealed class LatencyHistogram
{
    private const int SubBucketBits = 4;
    private const int SubBuckets = 1 << SubBucketBits;
    private const int MaxExponent = 40;
    private const int BucketCount = (MaxExponent - SubBucketBits + 2) * SubBuckets;

    private static readonly double NanosecondsPerTick = 1e9 / Stopwatch.Frequency;

    private readonly long[] _counts = new long[BucketCount];

    /// <summary>How many latencies were recorded.</summary>
    public long Count { get; private set; }

    /// <summary>The largest latency recorded, in nanoseconds.</summary>
    public long MaxNanoseconds { get; private set; }

    /// <summary>Records one operation that took <paramref name="ticks"/> <see cref="Stopwatch"/> ticks.</summary>
    public void RecordTicks(long ticks) => Record((long)(ticks * NanosecondsPerTick));

    /// <summary>Records one operation that took <paramref name="nanoseconds"/>.</summary>
    public void Record(long nanoseconds)
    {
        var value = Math.Max(0, nanoseconds);
        _counts[Bucket(value)]++;
        Count++;
        MaxNanoseconds = Math.Max(MaxNanoseconds, value);
    }

    /// <summary>Adds every latency of <paramref name="other"/> to this histogram.</summary>
    public void Add(LatencyHistogram other)
    {
        for (var i = 0; i < BucketCount; i++)
        {
            _counts[i] += other._counts[i];
        }

        Count += other.Count;
        MaxNanoseconds = Math.Max(MaxNanoseconds, other.MaxNanoseconds);
    }

    /// <summary>Forgets every latency recorded.</summary>
    public void Clear()
    {
        Array.Clear(_counts);
        Count = 0;
        MaxNanoseconds = 0;
    }

    /// <summary>The latency below which <paramref name="fraction"/> of the operations fall (0.5: the median), in nanoseconds: its bucket's midpoint; 0 when nothing was recorded.</summary>
    public double Percentile(double fraction)
    {
        var rank = Math.Max(1, (long)Math.Ceiling(fraction * Count));
        long seen = 0;
        for (var i = 0; i < BucketCount; i++)
        {
            seen += _counts[i];
            if (seen >= rank)
            {
                return Math.Min(MaxNanoseconds, (Lower(i) + Lower(i + 1) - 1) / 2.0);
            }
        }

        return 0;
    }

    private static int Bucket(long value)
    {
        if (value < SubBuckets)
        {
            return (int)value;
        }

        var exponent = Math.Min(BitOperations.Log2((ulong)value), MaxExponent);
        var mantissa = (int)(Math.Min(value, (2L << MaxExponent) - 1) >> (exponent - SubBucketBits)) & (SubBuckets - 1);
        return ((exponent - SubBucketBits + 1) * SubBuckets) + mantissa;
    }

    private static long Lower(int bucket)
    {
        if (bucket < SubBuckets)
        {
            return bucket;
        }

        var exponent = (bucket / SubBuckets) + SubBucketBits - 1;
        return (long)(SubBuckets + (bucket % SubBuckets)) << (exponent - SubBucketBits);
    }
}

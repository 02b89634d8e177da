namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// Zipfian-distributed item numbers in [0, n), item 0 the most popular, as YCSB's core workloads draw them
/// (Gray et al., "Quickly generating billion-record synthetic databases", constant 0.99). Immutable after
/// construction: threads share one and each brings its own <see cref="Random"/>.
/// </summary>
public sealed class ZipfianGenerator
{
    /// <summary>YCSB's default Zipfian constant.</summary>
    public const double Theta = 0.99;

    private readonly long _items;
    private readonly double _zetaN;
    private readonly double _alpha;
    private readonly double _eta;
    private readonly double _half;

    public ZipfianGenerator(long items)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(items, 2);
        _items = items;
        _zetaN = Zeta(items);
        _alpha = 1 / (1 - Theta);
        _eta = (1 - Math.Pow(2.0 / items, 1 - Theta)) / (1 - (Zeta(2) / _zetaN));
        _half = 1 + Math.Pow(0.5, Theta);
    }

    /// <summary>The next item number, 0 the most frequent.</summary>
    public long Next(Random random)
    {
        var u = random.NextDouble();
        var uz = u * _zetaN;
        if (uz < 1)
        {
            return 0;
        }

        if (uz < _half)
        {
            return 1;
        }

        return Math.Min(_items - 1, (long)(_items * Math.Pow((_eta * u) - _eta + 1, _alpha)));
    }

    /// <summary>The next item number with popularity spread over the whole range (YCSB's scrambled Zipfian): the popular items are not neighbours.</summary>
    public long NextScrambled(Random random) => (long)(YcsbKeys.Fnv64((ulong)Next(random)) % (ulong)_items);

    private static double Zeta(long n)
    {
        var sum = 0.0;
        for (long i = 1; i <= n; i++)
        {
            sum += 1 / Math.Pow(i, Theta);
        }

        return sum;
    }
}

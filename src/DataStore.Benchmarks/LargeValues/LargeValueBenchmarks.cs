using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks.LargeValues;

/// <summary>
/// Large values, in the shape of a published Go comparison of Badger, Pebble, bbolt, NutsDB and SQLite: a store of
/// 2,048 random 64 KiB values, or of 8 random 16 MiB values (128 MiB either way), written then read back. <c>Put</c>
/// overwrites one of them (Relaxed), in a random order; <c>Get</c> reads one into a caller buffer. Time is per value;
/// the MB/s column is the value size over it. A dry pass (<c>--keys</c> below 100,000) keeps 20 values of 64 KiB only.
/// </summary>
[MemoryDiagnoser]
[MegabytesPerSecondColumn]
[SuiteJob(warmupCount: 2, iterationCount: 10)]
public class LargeValueBenchmarks : PreloadedStoreBenchmarks
{
    private const int Small = 64 << 10;
    private const int TotalBytes = 128 << 20;
    private const int Mask = (1 << 12) - 1;

    private byte[] _pool = [];
    private byte[] _buffer = [];
    private byte[][] _keys = [];
    private int[] _order = [];
    private int[] _offsets = [];
    private int _next;

    [ParamsSource(nameof(ValueSizes))]
    public int ValueSize { get; set; }

    /// <summary>64 KiB and 16 MiB; 64 KiB alone in a dry pass (the same code; the conformance suite writes values up to 256 MiB).</summary>
    public static IEnumerable<int> ValueSizes => BenchmarkCommandLine.DryPass ? [Small] : [Small, 16 << 20];

    /// <summary>The values in the store: 128 MiB of them, 1% of that in a dry pass.</summary>
    private int Count => TotalBytes / ValueSize / (BenchmarkCommandLine.DryPass ? 100 : 1);

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(17, Math.Max(4 << 20, 2 * ValueSize));
        _buffer = new byte[ValueSize];
        OpenStore(_pool, keys: 0);
        var random = new Random(5);
        _keys = Enumerable.Range(0, Count).Select(i => BenchmarkData.Key(i)).ToArray();
        _order = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(Count)).ToArray();
        _offsets = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(_pool.Length - ValueSize)).ToArray();
        for (var i = 0; i < Count; i++)
        {
            Store.Put(_keys[i], Value(i));
        }
    }

    [Benchmark]
    public void Put()
    {
        var n = _next++ & Mask;
        Store.Put(_keys[_order[n]], Value(n + 1));
    }

    [Benchmark]
    public int Get() => Store.Get(_keys[_order[_next++ & Mask]], _buffer);

    private ReadOnlySpan<byte> Value(int n) => _pool.AsSpan(_offsets[n & Mask], ValueSize);
}

using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// One atomic 1,000-key batch of random keys (half overwrites of preloaded keys, half new ones) on a store preloaded
/// with <c>--keys</c> keys, the shape of a mod's records written at once. Time is per key, so 1 / Mean is keys per second.
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 2, iterationCount: 10)]
public class BatchBenchmarks : PreloadedStoreBenchmarks
{
    private const int BatchSize = 1_000;
    private const int Mask = (1 << 16) - 1;

    private readonly WriteBatch _batch = new();
    private byte[][] _keys = [];
    private int[] _valueOffsets = [];
    private byte[] _pool = [];
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(11);
        OpenStore(_pool);
        var random = new Random(3);
        _keys = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(random.Next(2 * Preloaded))).ToArray();
        _valueOffsets = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(_pool.Length - BenchmarkData.ValueSize)).ToArray();
    }

    [Benchmark(OperationsPerInvoke = BatchSize)]
    public void Batch1000()
    {
        _batch.Clear();
        for (var i = 0; i < BatchSize; i++)
        {
            var n = _next++ & Mask;
            _batch.Put(_keys[n], _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize));
        }

        Store.Write(_batch);
    }
}

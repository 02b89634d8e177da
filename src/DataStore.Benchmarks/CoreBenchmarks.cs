using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// The core suite the decision records quote: Put (Relaxed, single-key overwrites), Get (into a caller buffer),
/// HaveKey (half misses) and a 1,000-key batch, on a store preloaded with 100,000 keys. Times are per key
/// (per batch for Batch1000).
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class CoreBenchmarks : PreloadedStoreBenchmarks
{
    private const int ReadsPerInvoke = 1_000;
    private const int PutsPerInvoke = 100;
    private const int Mask = (1 << 16) - 1;

    private readonly byte[] _buffer = new byte[256];
    private readonly ArrayBufferWriter<byte> _writer = new(256);
    private readonly WriteBatch _batch = new();
    private byte[][] _hits = [];
    private byte[][] _mixed = [];
    private int[] _valueOffsets = [];
    private byte[] _pool = [];
    private int _next;

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(7);
        OpenStore(_pool);
        var random = new Random(2);
        _hits = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(2L * random.Next(Preloaded))).ToArray();
        _mixed = Enumerable.Range(0, Mask + 1).Select(i => BenchmarkData.Key(2L * random.Next(Preloaded) + (i & 1))).ToArray();
        _valueOffsets = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(_pool.Length - BenchmarkData.ValueSize)).ToArray();
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int Get()
    {
        var total = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            total += Store.Get(_hits[_next++ & Mask], _buffer);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int GetIntoBufferWriter()
    {
        var total = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            _writer.ResetWrittenCount();
            Store.Get(_hits[_next++ & Mask], _writer);
            total += _writer.WrittenCount;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int HaveKey()
    {
        var found = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            found += Store.HaveKey(_mixed[_next++ & Mask]) ? 1 : 0;
        }

        return found;
    }

    [Benchmark(OperationsPerInvoke = PutsPerInvoke)]
    public void Put()
    {
        for (var i = 0; i < PutsPerInvoke; i++)
        {
            var n = _next++ & Mask;
            Store.Put(_hits[n], _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize));
        }
    }

    /// <summary>One atomic batch of 1,000 overwrites of random existing keys; time is per batch.</summary>
    [Benchmark]
    public void Batch1000()
    {
        _batch.Clear();
        for (var i = 0; i < 1_000; i++)
        {
            var n = _next++ & Mask;
            _batch.Put(_hits[n], _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize));
        }

        Store.Write(_batch);
    }
}

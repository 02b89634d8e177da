using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// The core suite the decision records quote: Put (Relaxed, single-key overwrites), Get (into a caller buffer),
/// HaveKey (half misses; <c>HaveKeyHit</c> and <c>HaveKeyMiss</c> apart), Delete (of existing keys) and a 1,000-key
/// batch, on a store preloaded with 100,000 keys. Times are per key (per batch for Batch1000).
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class CoreBenchmarks : PreloadedStoreBenchmarks
{
    private const int ReadsPerInvoke = 1_000;
    private const int PutsPerInvoke = 100;
    private const int DeletesPerInvoke = 250;
    private const int Mask = (1 << 16) - 1;

    private readonly byte[] _buffer = new byte[256];
    private readonly ArrayBufferWriter<byte> _writer = new(256);
    private readonly WriteBatch _batch = new();
    private byte[][] _hits = [];
    private byte[][] _mixed = [];
    private byte[][] _misses = [];
    private byte[][] _deleteOrder = [];
    private int _deleteNext;
    private int _deletedFrom = -1;
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
        _misses = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(2L * random.Next(Preloaded) + 1)).ToArray();
        var order = Enumerable.Range(0, Preloaded).ToArray();
        random.Shuffle(order);
        _deleteOrder = order.Select(i => BenchmarkData.Key(2L * i)).ToArray();
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
    public int HaveKey() => CountPresent(_mixed);

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int HaveKeyHit() => CountPresent(_hits);

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int HaveKeyMiss() => CountPresent(_misses);

    /// <summary>Before each Delete: the keys the previous one deleted are put back, untimed, so every Delete finds a full store.</summary>
    /// <remarks>With an iteration setup BenchmarkDotNet invokes Delete once per iteration, so each timed invocation starts from the preloaded keys.</remarks>
    [IterationSetup(Target = nameof(Delete))]
    public void PutBackDeleted()
    {
        if (_deletedFrom < 0)
        {
            return;
        }

        _batch.Clear();
        for (var i = 0; i < DeletesPerInvoke; i++)
        {
            _batch.Put(_deleteOrder[(_deletedFrom + i) % _deleteOrder.Length], _pool.AsSpan(_valueOffsets[i], BenchmarkData.ValueSize));
        }

        Store.Write(_batch);
    }

    /// <summary>Single-key deletes of 250 existing keys (the next ones of a random order of all keys); time is per delete.</summary>
    [Benchmark(OperationsPerInvoke = DeletesPerInvoke)]
    public void Delete()
    {
        _deletedFrom = _deleteNext;
        for (var i = 0; i < DeletesPerInvoke; i++)
        {
            Store.Delete(_deleteOrder[_deleteNext]);
            _deleteNext = (_deleteNext + 1) % _deleteOrder.Length;
        }
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

    private int CountPresent(byte[][] keys)
    {
        var found = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            found += Store.HaveKey(keys[_next++ & Mask]) ? 1 : 0;
        }

        return found;
    }
}

using System.Buffers;
using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// The core suite the decision records quote: Put (Relaxed, single-key overwrites), Get (into a caller buffer),
/// HaveKey (half misses) and a 1,000-key batch, on a store preloaded with 100,000 keys. Times are per key
/// (per batch for Batch1000).
/// </summary>
[MemoryDiagnoser]
[SimpleJob(launchCount: 1, warmupCount: 3, iterationCount: 15)]
public class CoreBenchmarks
{
    private const int Preloaded = 100_000;
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
    private string _directory = "";
    private IKeyValueStore _store = null!;
    private int _next;

    [ParamsSource(nameof(Backends))]
    public BackendCase Backend { get; set; } = null!;

    public static IEnumerable<BackendCase> Backends => BackendCase.All;

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(7);
        _directory = BenchmarkData.NewDirectory();
        _store = BenchmarkData.OpenPreloaded(Backend.Backend, _directory, Preloaded, _pool);
        var random = new Random(2);
        _hits = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(2L * random.Next(Preloaded))).ToArray();
        _mixed = Enumerable.Range(0, Mask + 1).Select(i => BenchmarkData.Key(2L * random.Next(Preloaded) + (i & 1))).ToArray();
        _valueOffsets = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(_pool.Length - BenchmarkData.ValueSize)).ToArray();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _store.Dispose();
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int Get()
    {
        var total = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            total += _store.Get(_hits[_next++ & Mask], _buffer);
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
            _store.Get(_hits[_next++ & Mask], _writer);
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
            found += _store.HaveKey(_mixed[_next++ & Mask]) ? 1 : 0;
        }

        return found;
    }

    [Benchmark(OperationsPerInvoke = PutsPerInvoke)]
    public void Put()
    {
        for (var i = 0; i < PutsPerInvoke; i++)
        {
            var n = _next++ & Mask;
            _store.Put(_hits[n], _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize));
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

        _store.Write(_batch);
    }
}

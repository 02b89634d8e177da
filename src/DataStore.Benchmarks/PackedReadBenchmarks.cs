using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>Reads from a store of <see cref="PackedData.Count"/> pairs: Packed against LMDB and SQLite on the same data.</summary>
/// <remarks>Get and HaveKey take 1,000 random keys per invocation (hits: even ids; misses: odd ids); a scan reads one 8-byte prefix (128 pairs).</remarks>
[MemoryDiagnoser]
public class PackedReadBenchmarks
{
    private const int Keys = 1_000;
    private readonly byte[] _buffer = new byte[BenchmarkData.ValueSize];
    private byte[][] _hits = [];
    private byte[][] _misses = [];
    private byte[][] _prefixes = [];
    private string _directory = "";
    private IKeyValueStore _store = null!;
    private int _next;

    [ParamsSource(typeof(PackedData), nameof(PackedData.Backends))]
    public StoreBackend Backend { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkData.NewDirectory();
        PackedData.Create(Backend, _directory, BenchmarkData.ValuePool(7));
        _store = KeyValueStore.Open(_directory);
        var random = new Random(3);
        _hits = [.. Enumerable.Range(0, Keys).Select(_ => BenchmarkData.Key(2L * random.Next(PackedData.Count)))];
        _misses = [.. _hits.Select(k => BenchmarkData.Key(System.Buffers.Binary.BinaryPrimitives.ReadInt64BigEndian(k.AsSpan(1)) + 1))];
        _prefixes = [.. _hits.Select(k => k[..8])];
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _store.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark(OperationsPerInvoke = Keys)]
    public int Get()
    {
        var total = 0;
        foreach (var key in _hits)
        {
            total += _store.Get(key, _buffer);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = Keys)]
    public int HaveKey() => Present(_hits);

    [Benchmark(OperationsPerInvoke = Keys)]
    public int HaveKeyMiss() => Present(_misses);

    [Benchmark]
    public int ScanPrefix()
    {
        var prefix = _prefixes[_next++ % Keys];
        var bytes = 0;
        using var cursor = _store.ScanPrefix(prefix);
        while (cursor.MoveNext())
        {
            bytes += cursor.Value.Length;
        }

        return bytes;
    }

    [Benchmark]
    public void Open() => KeyValueStore.Open(_directory).Dispose();

    private int Present(byte[][] keys)
    {
        var found = 0;
        foreach (var key in keys)
        {
            found += _store.HaveKey(key) ? 1 : 0;
        }

        return found;
    }
}

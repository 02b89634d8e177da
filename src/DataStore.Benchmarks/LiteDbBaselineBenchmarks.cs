using BenchmarkDotNet.Attributes;
using LiteDB;

namespace DataStore.Benchmarks;

/// <summary>
/// The ruler for the LiteDb backend: LiteDB used directly the ordinary way, a plain <c>BsonDocument</c>
/// collection with <c>FindById</c> and <c>Upsert</c>, on the core suite's data shape (documents
/// <c>{ _id: 9-byte binary key, v: 128-byte binary value }</c>, 100,000 preloaded, the same keys and values)
/// and the same operations as <see cref="CoreBenchmarks"/>. Run it in the same sitting:
/// <c>--filter '*CoreBenchmarks*' '*LiteDbBaselineBenchmarks*'</c>.
/// </summary>
/// <remarks>
/// <c>Direct</c> is LiteDB's default connection (one process; a commit returns before its pages are written).
/// <c>Shared</c> is its multi-process mode (a named mutex, the file opened and closed around each operation).
/// <c>Memory</c> is LiteDB on an in-memory stream: no file, no log writer wait, no fsync, so its <c>Batch1000</c> is
/// LiteDB's own limit for a 1,000-key batch on this machine.
/// </remarks>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class LiteDbBaselineBenchmarks
{
    private static readonly int Preloaded = BenchmarkCommandLine.Keys;
    private const int ReadsPerInvoke = 1_000;
    private const int PutsPerInvoke = 100;
    private const int Mask = (1 << 16) - 1;

    private readonly byte[] _buffer = new byte[256];
    private byte[][] _hits = [];
    private byte[][] _mixed = [];
    private int[] _valueOffsets = [];
    private byte[] _pool = [];
    private string _directory = "";
    private LiteDatabase _db = null!;
    private ILiteCollection<BsonDocument> _pairs = null!;
    private int _next;

    [Params("Direct", "Shared", "Memory")]
    public string Connection { get; set; } = "Direct";

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(7);
        _directory = BenchmarkData.NewDirectory();
        Directory.CreateDirectory(_directory);
        _db = Connection == "Memory"
            ? new LiteDatabase(new MemoryStream())
            : new LiteDatabase($"Filename={Path.Combine(_directory, "baseline.litedb")};Connection={Connection}");
        _pairs = _db.GetCollection("kv");
        var random = new Random(1);
        var order = Enumerable.Range(0, Preloaded).ToArray();
        random.Shuffle(order);
        foreach (var chunk in order.Chunk(1_000))
        {
            _pairs.Upsert(chunk.Select(i => Pair(BenchmarkData.Key(2L * i), _pool.AsSpan(random.Next(_pool.Length - BenchmarkData.ValueSize), BenchmarkData.ValueSize))));
        }

        random = new Random(2);
        _hits = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(2L * random.Next(Preloaded))).ToArray();
        _mixed = Enumerable.Range(0, Mask + 1).Select(i => BenchmarkData.Key(2L * random.Next(Preloaded) + (i & 1))).ToArray();
        _valueOffsets = Enumerable.Range(0, Mask + 1).Select(_ => random.Next(_pool.Length - BenchmarkData.ValueSize)).ToArray();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _db.Dispose();
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
            var value = _pairs.FindById(new BsonValue(_hits[_next++ & Mask]))["v"].AsBinary;
            value.CopyTo(_buffer, 0);
            total += value.Length;
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = ReadsPerInvoke)]
    public int HaveKey()
    {
        var found = 0;
        for (var i = 0; i < ReadsPerInvoke; i++)
        {
            found += _pairs.FindById(new BsonValue(_mixed[_next++ & Mask])) is null ? 0 : 1;
        }

        return found;
    }

    [Benchmark(OperationsPerInvoke = PutsPerInvoke)]
    public void Put()
    {
        for (var i = 0; i < PutsPerInvoke; i++)
        {
            var n = _next++ & Mask;
            _pairs.Upsert(Pair(_hits[n], _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize)));
        }
    }

    /// <summary>1,000 upserts of random existing keys in one transaction; time is per batch.</summary>
    [Benchmark]
    public void Batch1000()
    {
        var docs = new BsonDocument[1_000];
        for (var i = 0; i < docs.Length; i++)
        {
            var n = _next++ & Mask;
            docs[i] = Pair(_hits[n], _pool.AsSpan(_valueOffsets[n], BenchmarkData.ValueSize));
        }

        _pairs.Upsert(docs);
    }

    private static BsonDocument Pair(byte[] key, ReadOnlySpan<byte> value) =>
        new() { ["_id"] = new BsonValue(key), ["v"] = new BsonValue(value.ToArray()) };
}

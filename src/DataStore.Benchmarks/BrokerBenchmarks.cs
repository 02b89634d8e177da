using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// Get, HaveKey and Put on a RocksDb store directly in the owner process and from a client through the owner's socket
/// (ADR 0015), and a 10,000-pair scan from either. The owner runs in the benchmark process, so a client call crosses
/// the socket and two thread wake-ups, as it would across processes.
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class BrokerBenchmarks
{
    private const int Keys = 10_000;
    private const int CallsPerInvoke = 200;

    private readonly byte[] _buffer = new byte[256];
    private readonly byte[] _value = new byte[BenchmarkData.ValueSize];
    private string _directory = "";
    private IKeyValueStore _owner = null!;
    private IKeyValueStore _store = null!;
    private byte[][] _keys = [];
    private int _next;

    /// <summary>Direct: the owner's own calls; Client: a second open of the store, served by the owner.</summary>
    [Params("Direct", "Client")]
    public string Mode { get; set; } = "Direct";

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkData.NewDirectory();
        var options = new DataStoreOptions { Path = _directory, Backend = StoreBackend.RocksDb };
        _owner = KeyValueStore.Open(options);
        _keys = [.. Enumerable.Range(0, Keys).Select(i => BenchmarkData.Key(i))];
        var batch = new WriteBatch();
        foreach (var key in _keys)
        {
            batch.Put(key, _value);
        }

        _owner.Write(batch);
        _store = Mode == "Client" ? KeyValueStore.Open(options) : _owner;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        if (!ReferenceEquals(_store, _owner))
        {
            _store.Dispose();
        }

        _owner.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark(OperationsPerInvoke = CallsPerInvoke)]
    public int Get()
    {
        var total = 0;
        for (var i = 0; i < CallsPerInvoke; i++)
        {
            total += _store.Get(_keys[_next++ % Keys], _buffer);
        }

        return total;
    }

    [Benchmark(OperationsPerInvoke = CallsPerInvoke)]
    public int HaveKey()
    {
        var found = 0;
        for (var i = 0; i < CallsPerInvoke; i++)
        {
            found += _store.HaveKey(_keys[_next++ % Keys]) ? 1 : 0;
        }

        return found;
    }

    [Benchmark(OperationsPerInvoke = CallsPerInvoke)]
    public void Put()
    {
        for (var i = 0; i < CallsPerInvoke; i++)
        {
            _store.Put(_keys[_next++ % Keys], _value);
        }
    }

    /// <summary>Every pair of the store, in key order; time is per pair.</summary>
    [Benchmark(OperationsPerInvoke = Keys)]
    public int Scan()
    {
        var count = 0;
        using var cursor = _store.ScanPrefix([]);
        while (cursor.MoveNext())
        {
            count += cursor.Value.Length;
        }

        return count;
    }
}

using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// Durable single-key puts (synced before they return) from 1, 8 and 32 threads at once: group commit lets
/// concurrent writers share each WAL fsync, so the time per put falls as writers are added. Time is per put. Every
/// persistent backend (<c>--backends</c> chooses).
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 2, iterationCount: 10)]
public class DurablePutBenchmarks
{
    private const int PutsPerInvoke = 256;
    private byte[] _pool = [];
    private string _directory = "";
    private IKeyValueStore _store = null!;

    [ParamsSource(nameof(Backends))]
    public BackendCase Backend { get; set; } = null!;

    public static IEnumerable<BackendCase> Backends => BackendCase.All.Where(c => c.Backend != StoreBackend.InMemory);

    [Params(1, 8, 32)]
    public int Threads { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _pool = BenchmarkData.ValuePool(9);
        ThreadPool.GetMinThreads(out _, out var io);
        ThreadPool.SetMinThreads(Math.Max(Threads, Environment.ProcessorCount), io); // 32 writers at once, not as the pool grows
        _directory = BenchmarkData.NewDirectory();
        _store = KeyValueStore.Open(new DataStoreOptions { Path = _directory, Backend = Backend.Backend, Durability = Durability.Durable });
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _store.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark(OperationsPerInvoke = PutsPerInvoke)]
    public void DurablePut()
    {
        var perThread = PutsPerInvoke / Threads;
        Parallel.For(0, Threads, new ParallelOptions { MaxDegreeOfParallelism = Threads }, t =>
        {
            for (var i = 0; i < perThread; i++)
            {
                _store.Put(BenchmarkData.Key((t * perThread) + i), _pool.AsSpan(i * BenchmarkData.ValueSize, BenchmarkData.ValueSize));
            }
        });
    }
}

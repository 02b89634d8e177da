using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// A bulk load: <c>--records N</c> keys (10,000 unless given) in random order, 1,000 per batch, into a new store, as
/// an import or a first game setup writes them. Each invocation loads a fresh store; time is per load, so N / Mean is
/// keys per second.
/// </summary>
[MemoryDiagnoser]
[InvocationCount(1)]
[SuiteJob(warmupCount: 1, iterationCount: 5)]
public class BulkLoadBenchmarks
{
    private byte[] _pool = [];
    private string _directory = "";

    [ParamsSource(nameof(Backends))]
    public BackendCase Backend { get; set; } = null!;

    public static IEnumerable<BackendCase> Backends => BackendCase.All;

    /// <summary>The keys each load writes.</summary>
    public static int Records => BenchmarkCommandLine.Records;

    [GlobalSetup]
    public void Setup() => _pool = BenchmarkData.ValuePool(13);

    [IterationSetup]
    public void NewDirectory() => _directory = BenchmarkData.NewDirectory();

    [IterationCleanup]
    public void DeleteDirectory()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    [Benchmark]
    public void BulkLoad()
    {
        using var store = BenchmarkData.OpenPreloaded(Backend.Backend, _directory, Records, _pool);
    }
}

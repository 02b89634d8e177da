using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// Bulk load: a fresh store filled with <see cref="Keys"/> keys in random order, 1,000 per batch (issue 17's 50,000
/// writes/s target), each invocation into a new directory. Time is per load; pairs per second = Keys / time.
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 1, iterationCount: 5)]
public class BulkLoadBenchmarks
{
    private byte[] _pool = [];
    private string _directory = "";

    [ParamsSource(nameof(Backends))]
    public BackendCase Backend { get; set; } = null!;

    public static IEnumerable<BackendCase> Backends => BackendCase.All;

    /// <summary>How many keys each load writes (<c>--keys</c> sets it; 100,000 by default).</summary>
    public static int Keys => BenchmarkCommandLine.Keys;

    [GlobalSetup]
    public void Setup() => _pool = BenchmarkData.ValuePool(11);

    [IterationSetup]
    public void NewDirectory() => _directory = BenchmarkData.NewDirectory();

    [IterationCleanup]
    public void RemoveDirectory()
    {
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    /// <summary>Loads the keys (ids 0, 2, 4, ... shuffled) in batches of 1,000 and closes the store.</summary>
    [Benchmark]
    public void BulkLoad()
    {
        using var store = BenchmarkData.OpenPreloaded(Backend.Backend, _directory, Keys, _pool);
    }
}

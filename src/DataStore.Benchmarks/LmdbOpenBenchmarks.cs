using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// What opening an existing Lmdb store costs as it grows: the open walks the main tree with DataStore's own page
/// reader before any read (ADR 0006, "Damaged files"), up to 4,096 pages, so the cost rises with the store until then.
/// Each iteration opens and disposes the store (the process-wide environment closes with the last store).
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 10)]
public class LmdbOpenBenchmarks
{
    private string _directory = "";

    /// <summary>Pairs of 9-byte keys and 128-byte values, loaded in random order (leaves about two-thirds full): the largest passes the page budget.</summary>
    [Params(1_000, 10_000, 100_000)]
    public int Pairs { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkData.NewDirectory();
        BenchmarkData.OpenPreloaded(StoreBackend.Lmdb, _directory, Pairs, BenchmarkData.ValuePool(1)).Dispose();
    }

    [GlobalCleanup]
    public void Cleanup() => Directory.Delete(_directory, recursive: true);

    [Benchmark]
    public void Open() => KeyValueStore.Open(new DataStoreOptions { Path = _directory, Backend = StoreBackend.Lmdb }).Dispose();
}

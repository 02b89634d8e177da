using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// What the suites over a preloaded store share: one store per backend parameter, loaded with the core keys
/// (<see cref="BenchmarkData.OpenPreloaded"/>; none for a suite that loads its own data), and removed after the run.
/// </summary>
public abstract class PreloadedStoreBenchmarks
{
    /// <summary>The keys (ids 0, 2, 4, ...) every such suite starts from: 100,000 unless <c>--keys</c> says otherwise.</summary>
    protected static int Preloaded => BenchmarkCommandLine.Keys;

    private string _directory = "";

    [ParamsSource(nameof(Backends))]
    public BackendCase Backend { get; set; } = null!;

    public static IEnumerable<BackendCase> Backends => BackendCase.All;

    /// <summary>The store under test, open from <see cref="OpenStore"/> until the cleanup.</summary>
    protected IKeyValueStore Store { get; private set; } = null!;

    [GlobalCleanup]
    public void Cleanup()
    {
        Store.Dispose();
        if (Directory.Exists(_directory))
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    /// <summary>Opens a new store of <see cref="Backend"/> preloaded with <see cref="Preloaded"/> keys whose values come from <paramref name="pool"/>.</summary>
    protected void OpenStore(byte[] pool) => OpenStore(pool, Preloaded);

    /// <summary>Opens a new store of <see cref="Backend"/> preloaded with <paramref name="keys"/> core keys (none for a suite that loads its own data).</summary>
    protected void OpenStore(byte[] pool, int keys)
    {
        _directory = BenchmarkData.NewDirectory();
        Store = BenchmarkData.OpenPreloaded(Backend.Backend, _directory, keys, pool);
    }
}

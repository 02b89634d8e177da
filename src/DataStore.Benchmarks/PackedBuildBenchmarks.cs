using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>Creating a store of <see cref="PackedData.Count"/> sorted pairs: a Packed build against batched imports into LMDB and SQLite.</summary>
/// <remarks>
/// Each invocation writes a fresh store; the console line after it gives the store's size on disk. <see cref="Generate"/>
/// only makes the pairs (new arrays each, as every build gets them), the part of each build's time that is not the store's.
/// </remarks>
[MemoryDiagnoser]
public class PackedBuildBenchmarks
{
    private readonly byte[] _pool = BenchmarkData.ValuePool(7);
    private string _directory = "";

    [ParamsSource(typeof(PackedData), nameof(PackedData.Backends))]
    public StoreBackend Backend { get; set; }

    [IterationSetup]
    public void NewDirectory() => _directory = BenchmarkData.NewDirectory();

    [IterationCleanup]
    public void RemoveDirectory()
    {
        if (!Directory.Exists(_directory))
        {
            return; // Generate writes no store
        }

        Console.WriteLine($"// {Backend}: {PackedData.Count:N0} pairs ({PackedData.Count * (9L + BenchmarkData.ValueSize):N0} bytes of keys and values) take {PackedData.Size(_directory):N0} bytes on disk");
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark]
    public void Build() => PackedData.Create(Backend, _directory, _pool);

    [Benchmark]
    public long Generate()
    {
        var bytes = 0L;
        foreach (var pair in PackedData.Sorted(_pool))
        {
            bytes += pair.Key.Length + pair.Value.Length;
        }

        return bytes;
    }
}

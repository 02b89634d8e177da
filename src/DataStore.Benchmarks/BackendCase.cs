namespace DataStore.Benchmarks;

/// <summary>One backend as a benchmark parameter, labelled by its name in result tables.</summary>
public sealed record BackendCase(StoreBackend Backend)
{
    /// <summary>The backends every suite runs over: each writable one this build includes (Packed is read-only: <see cref="PackedReadBenchmarks"/> measures it).</summary>
    /// <remarks><c>--backends Sqlite,RocksDb</c> (or the environment variable <c>DATASTORE_BENCH_BACKENDS</c>) narrows the list.</remarks>
    public static IEnumerable<BackendCase> All =>
        Enum.GetValues<StoreBackend>().Where(b => b != StoreBackend.Packed).Where(KeyValueStore.IsAvailable).Where(b => BenchmarkCommandLine.Selects(b.ToString())).Select(b => new BackendCase(b)).ToArray();

    public override string ToString() => Backend.ToString();
}

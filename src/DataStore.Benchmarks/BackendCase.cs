namespace DataStore.Benchmarks;

/// <summary>One backend as a benchmark parameter, labelled by its name in result tables.</summary>
public sealed record BackendCase(StoreBackend Backend)
{
    /// <summary>The backends every suite runs over: each writable one this build includes (Packed is read-only: <see cref="PackedReadBenchmarks"/> measures it).</summary>
    /// <remarks>The environment variable <c>DATASTORE_BENCH_BACKENDS</c> (for example <c>Sqlite,RocksDb</c>) narrows the list.</remarks>
    public static IEnumerable<BackendCase> All { get; } =
        Enum.GetValues<StoreBackend>().Where(b => b != StoreBackend.Packed).Where(KeyValueStore.IsAvailable).Where(Selected).Select(b => new BackendCase(b)).ToArray();

    private static bool Selected(StoreBackend backend) =>
        Environment.GetEnvironmentVariable("DATASTORE_BENCH_BACKENDS") is not { Length: > 0 } list ||
        list.Split(',', StringSplitOptions.TrimEntries).Contains(backend.ToString(), StringComparer.OrdinalIgnoreCase);

    public override string ToString() => Backend.ToString();
}

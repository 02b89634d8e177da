namespace DataStore.Benchmarks;

/// <summary>One backend as a benchmark parameter, labelled by its name in result tables.</summary>
public sealed record BackendCase(StoreBackend Backend)
{
    /// <summary>The backends every suite runs over: each one this build includes.</summary>
    public static IEnumerable<BackendCase> All { get; } =
        Enum.GetValues<StoreBackend>().Where(KeyValueStore.IsAvailable).Select(b => new BackendCase(b)).ToArray();

    public override string ToString() => Backend.ToString();
}

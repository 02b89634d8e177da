namespace DataStore.Benchmarks;

/// <summary>One backend as a benchmark parameter, labelled by its name in result tables.</summary>
public sealed record BackendCase(StoreBackend Backend)
{
    /// <summary>The backends every suite runs over.</summary>
    public static IEnumerable<BackendCase> All { get; } = [new(StoreBackend.Sqlite), new(StoreBackend.InMemory)];

    public override string ToString() => Backend.ToString();
}

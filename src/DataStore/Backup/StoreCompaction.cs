namespace DataStore.Backup;

/// <summary>Compaction with progress and sizes.</summary>
internal static class StoreCompaction
{
    public static Task<long> RunAsync(IKeyValueStore store, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) => throw new NotImplementedException();
}

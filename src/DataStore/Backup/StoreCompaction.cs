namespace DataStore.Backup;

/// <summary>Compaction with progress and sizes: the store's files are measured before and after <see cref="IKeyValueStore.Compact"/>.</summary>
internal static class StoreCompaction
{
    public static Task<long> RunAsync(IKeyValueStore store, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        return Task.Run(() =>
        {
            var persistent = store.Backend != StoreBackend.InMemory;
            var before = persistent ? DirectorySize.Of(store.Path) : 0;
            progress?.Report(new StoreProgress(StorePhase.Compacting, 0, 0, null, before));
            cancellationToken.ThrowIfCancellationRequested();
            store.Compact(); // one engine call: it cannot stop part-way, so cancellation is honoured only before it starts
            var after = persistent ? DirectorySize.Of(store.Path) : 0;
            progress?.Report(new StoreProgress(StorePhase.Compacting, 0, before, null, before));
            return Math.Max(0, before - after);
        }, cancellationToken);
    }
}

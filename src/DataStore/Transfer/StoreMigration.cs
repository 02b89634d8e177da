namespace DataStore.Transfer;

/// <summary>Copies a store to another backend and checks the copy.</summary>
internal static class StoreMigration
{
    public static Task<StoreDigest> RunAsync(IKeyValueStore source, DataStoreOptions destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) => throw new NotImplementedException();
}

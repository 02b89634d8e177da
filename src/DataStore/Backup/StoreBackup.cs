namespace DataStore.Backup;

/// <summary>Online copies of a store.</summary>
internal static class StoreBackup
{
    public static Task<BackupResult> RunAsync(IKeyValueStore store, string destinationPath, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) => throw new NotImplementedException();
}

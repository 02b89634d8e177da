namespace DataStore.Transfer;

/// <summary>Creates a store from a dump.</summary>
internal static class DumpImport
{
    public static Task<StoreDigest> RunAsync(Stream source, DataStoreOptions destination, ImportOptions options, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) => throw new NotImplementedException();
}

namespace DataStore.Transfer;

/// <summary>Writes a store to a dump.</summary>
internal static class DumpExport
{
    public static Task<StoreDigest> RunAsync(IKeyValueStore store, Stream destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) => throw new NotImplementedException();
}

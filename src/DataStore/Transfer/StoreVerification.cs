namespace DataStore.Transfer;

/// <summary>The engine's integrity check plus a full read.</summary>
internal static class StoreVerification
{
    public static Task<VerifyReport> RunAsync(IKeyValueStore store, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) => throw new NotImplementedException();
}

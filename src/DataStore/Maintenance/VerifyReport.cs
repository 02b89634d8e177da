namespace DataStore;

/// <summary>What <see cref="StoreMaintenance.VerifyAsync"/> found: the store's digest and every problem seen.</summary>
/// <param name="Digest">The digest of every pair that could be read.</param>
/// <param name="Problems">What is wrong, one sentence each; empty for a healthy store.</param>
public sealed record VerifyReport(StoreDigest Digest, IReadOnlyList<string> Problems)
{
    /// <summary>True when the engine's own check and the full read found nothing wrong.</summary>
    public bool IsHealthy => Problems.Count == 0;
}

namespace DataStore.Lmdb;

/// <summary>
/// Damage that verify's page walk found beyond what the open check reads (<see cref="Files.LmdbTreeCheck.PageBudget"/>):
/// from then on scans in this process refuse to start, since LMDB's cursor aborts the process on a page of the wrong
/// kind. Point reads need no guard: LMDB's lookup reports such a page as <c>MDB_CORRUPTED</c>.
/// </summary>
internal sealed partial class LmdbEnvironment
{
    private string? _damage;

    /// <summary>Records damage found in the data file (the first one found is kept).</summary>
    public void MarkDamaged(string damage) => Interlocked.CompareExchange(ref _damage, damage, null);

    /// <summary>Throws a Corrupt <see cref="StoreFormatException"/> when damage was recorded.</summary>
    public void ThrowIfDamaged()
    {
        if (Volatile.Read(ref _damage) is { } damage)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, Directory, StoreBackend.Lmdb,
                $"the scan was refused because the data file is known to be damaged ({damage}). Restore the store from a backup.");
        }
    }
}

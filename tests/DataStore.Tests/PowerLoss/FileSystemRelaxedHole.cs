namespace DataStore.Tests.PowerLoss;

/// <summary>
/// Known defect (docs/reliability.md, "Power loss"): a FileSystem Relaxed power loss can still lose a single Put and keep
/// a later one. The path through a prepared split's leaf sync outside the write lock is closed (ADR 0008, *Relaxed
/// ordering*); after it, one run of 10 rounds still showed it twice, at a synced-only and an in-order point (P 150 lost and
/// P 153 kept, P 114 lost and P 116 kept, seed 468288663), by a path not found yet.
/// </summary>
internal static class FileSystemRelaxedHole
{
    public static (string Reason, string Sign)? For(Durability durability) => durability == Durability.Relaxed
        ? ("Known defect (docs/reliability.md, \"Power loss\"): a FileSystem Relaxed single Put can still be lost while a later one is kept (seen after the prepared split's leaf sync was closed: seed 468288663, synced-only and in-order points; the path is not found yet).", PowerLossJudge.HoleInHistory)
        : null;
}

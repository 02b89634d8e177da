namespace DataStore.Tests.PowerLoss;

/// <summary>
/// Known defect (docs/reliability.md, "Power loss"): a FileSystem Relaxed store syncs the directories its unsynced Puts
/// changed before a batch or a split preparation makes anything durable, but a Put made in another directory while a split
/// is prepared can still precede the leaf sync the preparation makes outside the write lock, so a power loss can lose it and
/// keep a later Put.
/// </summary>
internal static class FileSystemRelaxedHole
{
    public static (string Reason, string Sign)? For(Durability durability) => durability == Durability.Relaxed
        ? ("Known defect (docs/reliability.md, \"Power loss\"): a FileSystem Relaxed Put made while a split is prepared can be lost while a later Put is kept (the preparation's leaf sync runs outside the write lock).", PowerLossJudge.HoleInHistory)
        : null;
}

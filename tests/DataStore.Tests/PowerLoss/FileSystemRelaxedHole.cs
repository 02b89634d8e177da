namespace DataStore.Tests.PowerLoss;

/// <summary>
/// Known defect (docs/reliability.md, "Power loss"): a FileSystem Relaxed put's rename is not synced while a later batch's
/// journal is, so a power loss can keep the batch and lose puts acknowledged before it.
/// </summary>
internal static class FileSystemRelaxedHole
{
    public static (string Reason, string Sign)? For(Durability durability) => durability == Durability.Relaxed
        ? ("Known defect (docs/reliability.md, \"Power loss\"): a FileSystem Relaxed put's rename is not synced while a later batch is, so a power loss can keep the batch and lose puts acknowledged before it.", PowerLossJudge.HoleInHistory)
        : null;
}

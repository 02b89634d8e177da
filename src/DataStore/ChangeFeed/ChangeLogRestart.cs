using System.Buffers.Binary;
using DataStore.Platform;

namespace DataStore.ChangeFeed;

/// <summary>
/// Keeps a store's change log from giving a number twice across a power loss (ADR 0020, *The log's restart after a
/// power loss*): a commit that is visible before it is synced (every Relaxed commit; on Sqlite, Lmdb and LiteDb the Durable
/// commit in flight too, shown before its group sync) can be taken back by a power loss after subscribers saw it, with its
/// record. A writer whose commits are so shown first marks the store (the file <c>changelog-unsynced</c>, naming this boot,
/// created synced); the first open in a later boot that finds the mark appends, durably, one empty record
/// <see cref="Gap"/> past the log's latest, so every number that could have been seen lies before a gap, which a
/// subscriber reads as <see cref="StoreChangeKind.Resynchronize"/>, and every new commit follows it.
/// </summary>
/// <remarks>Runs once per open, before the store's first write; never on the write path. Not applied where the boot is unknown (<see cref="BootIdentity"/>).
/// The last clean close of the store takes the mark back (<see cref="ChangeLogMarkTakeBack"/>).</remarks>
internal static class ChangeLogRestart
{
    /// <summary>How far the log jumps past its latest: more commits than a store makes between two background syncs.</summary>
    public const long Gap = 1L << 32;

    /// <summary>The marker's file name in the store's directory.</summary>
    public const string MarkerName = "changelog-unsynced";

    /// <summary>
    /// Restarts <paramref name="log"/> when a writer of another boot marked the store, then marks it for this boot when this
    /// process shows commits before they are synced (<paramref name="shownBeforeSynced"/>) or restarted it (a writer of this
    /// boot may have marked it since this process read the mark; rewriting the mark keeps it, at the cost of one more restart).
    /// The caller holds the store's open lock, shared from before this reads the mark until its store is disposed (exclusive in
    /// the change-feed switch), so a close that takes the mark back (<see cref="ChangeLogMarkTakeBack"/>) never runs between
    /// this read and this process's writes.
    /// </summary>
    /// <exception cref="DataStoreException">The restart record or the marker could not be written; names the store.</exception>
    public static void Prepare(IChangeLog log, string directory, StoreBackend backend, bool shownBeforeSynced)
    {
        if (BootIdentity.Current == 0)
        {
            return;
        }

        StoreFiles.Guard(directory, backend, () =>
        {
            Run(log, directory, shownBeforeSynced);
            return true;
        });
    }

    private static void Run(IChangeLog log, string directory, bool shownBeforeSynced)
    {
        var marker = Path.Combine(directory, MarkerName);
        var boot = ReadBoot(marker);
        if (boot == BootIdentity.Current)
        {
            return;
        }

        if (boot is not null)
        {
            log.AppendRestart(Gap); // synced before the mark goes: a second power loss keeps the gap or the mark
        }

        if (shownBeforeSynced || boot is not null)
        {
            Span<byte> contents = stackalloc byte[sizeof(ulong)];
            BinaryPrimitives.WriteUInt64LittleEndian(contents, BootIdentity.Current);
            SyncedFile.Replace(marker, contents);
        }
    }

    // The boot a marker names; null when there is none, 0 when it is damaged (a boot that is never this one).
    private static ulong? ReadBoot(string marker)
    {
        byte[] contents;
        try
        {
            contents = File.ReadAllBytes(marker);
        }
        catch (FileNotFoundException)
        {
            return null;
        }

        return contents.Length == sizeof(ulong) ? BinaryPrimitives.ReadUInt64LittleEndian(contents) : 0;
    }
}

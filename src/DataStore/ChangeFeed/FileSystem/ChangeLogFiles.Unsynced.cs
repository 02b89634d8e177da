using DataStore.Platform;

namespace DataStore.ChangeFeed.FileSystem;

/// <summary>
/// Records appended without a sync (a Relaxed store's Put and Delete, ADR 0020, *Relaxed*): the marker file
/// <c>changelog/unsynced</c>, created synced before the first such record, says that a power loss may leave the log and the
/// data disagreeing about the commits since the last background sync. At the first open after a restart, recovery then
/// completes the data and restarts the log (<see cref="Restart"/>): every subscriber resynchronizes.
/// </summary>
internal sealed partial class ChangeLogFiles
{
    /// <summary>
    /// How far a restarted log's sequence jumps past the highest it holds: more than the commits a Relaxed store can make
    /// between two background syncs, so no number a subscriber saw before the power loss is given to a new commit.
    /// </summary>
    public const long RestartGap = ChangeLogRestart.Gap;

    private const string UnsyncedMarker = "unsynced";

    private bool _markedUnsynced;

    private string Marker => Path.Combine(_folder, UnsyncedMarker);

    /// <summary>Whether a Relaxed writer has appended records without a sync since the log last restarted.</summary>
    public bool HasUnsyncedRecords => File.Exists(Marker);

    /// <summary>Makes sure the marker is on disk before this process appends its first record without a sync; call holding the write lock.</summary>
    public void MarkUnsynced()
    {
        if (_markedUnsynced)
        {
            return;
        }

        if (!File.Exists(Marker))
        {
            EnsureFolder();
            SyncedFile.Replace(Marker, []);
        }

        _markedUnsynced = true;
    }

    /// <summary>
    /// After a restart of a store with unsynced records: replaces the log by one empty record numbered
    /// <see cref="RestartGap"/> past the highest whole frame found (a torn or lost tail is not searched), then removes the
    /// marker. A reader after any earlier number finds a gap before it and resynchronizes. Returns the new latest sequence.
    /// </summary>
    public long Restart()
    {
        var segments = Segments();
        var highest = 0L;
        foreach (var (first, path) in segments)
        {
            highest = Math.Max(highest, Math.Max(first, HighestWhole(File.ReadAllBytes(path))));
        }

        var sequence = highest + RestartGap;
        var frame = ChangeLogFrame.Encode(sequence, []);
        var segment = Path.Combine(_folder, Name(sequence));
        EnsureFolder();
        SyncedFile.Replace(segment, frame); // first, so the sequence never goes back whatever a crash leaves of the rest
        FinishRestart();
        Remember(new Tail(segment, frame.Length, sequence));
        return sequence;
    }

    /// <summary>
    /// Completes a restart a killed writer left (its new segment starts <see cref="RestartGap"/> or more past the one before):
    /// deletes the older segments and the marker. Call within recovery, holding the write lock.
    /// </summary>
    public void FinishRestart()
    {
        var segments = Segments();
        if (segments.Count < 2 || segments[^1].First - segments[^2].First < RestartGap)
        {
            return;
        }

        foreach (var (_, path) in segments.SkipLast(1))
        {
            File.Delete(path);
        }

        File.Delete(Marker);
        DirectorySync.Sync(_folder);
        _markedUnsynced = false;
    }

    private static long HighestWhole(ReadOnlySpan<byte> bytes)
    {
        var (highest, offset) = (0L, 0);
        while (ChangeLogFrame.TryRead(bytes, offset, out var sequence, out _, out offset) == ChangeLogFrame.Status.Whole)
        {
            highest = Math.Max(highest, sequence);
        }

        return highest;
    }
}

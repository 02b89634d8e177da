using DataStore.ChangeFeed;
using DataStore.Platform;

namespace DataStore.FileSystem;

// A Delete with the change feed on, and a Durable DeletePrefix or DeleteRange (a Relaxed one goes through the batch
// journal: its unlinks are left unsynced, and a power loss could keep some and lose the record), without the batch
// journal (ADR 0020, *The FileSystem log*): under the lock, with the change counter odd, the commit's record is appended and synced first (it names the key
// or the range: it is the intent), then the keys are removed and their directories synced before the change ends (Relaxed:
// neither synced, left to the background sync; a restart after it restarts the log, ChangeLogFiles.Unsynced). Removing
// is idempotent, so recovery removes the keys of the log's last record again when it only removes keys: after a writer
// died in its change (the counter is odd) and at the first open after a restart (a power loss may have kept the record
// and not the unlinks). Only the last record can lack its removals: every earlier delete synced its own under the lock,
// and every other commit (a Put's pending file, a journal) is completed after it, in sequence order.
internal sealed partial class TreeWriter
{
    /// <summary>
    /// Test hook: called on this thread after each step of a logged delete (1 sequence taken, 2 record appended and synced,
    /// 3 the first key removed, 4 every key removed, before the directories' syncs).
    /// </summary>
    [ThreadStatic]
    internal static Action<int>? LoggedDeleteStepForTests;

    /// <summary>
    /// With the change feed on, the manifest's <c>ResumedAfter</c> (a record at or below it may predate commits made with the
    /// feed off, so it is never completed again); null when the feed is off.
    /// </summary>
    public long? LoggedDeletesAfter { get; set; }

    /// <summary>
    /// Commits a Delete (<see cref="KeyChangeKind.Delete"/>) or a range delete (<see cref="KeyChangeKind.DeleteRange"/>,
    /// an empty <paramref name="end"/> is open) as the next commit of the change log; returns how many keys a range removed.
    /// A failure after the record's append leaves the change counter odd: the next lock holder completes the delete.
    /// </summary>
    public long DeleteLogged(KeyChangeKind kind, ReadOnlySpan<byte> key, ReadOnlySpan<byte> end)
    {
        state.BeginChange();
        var sequence = Log.Latest() + 1;
        LoggedDeleteStepForTests?.Invoke(1);
        if (DeferLogSyncs)
        {
            Log.MarkUnsynced();
        }

        Log.Append(sequence, _record.Clear().Add(kind, key, end).Bytes, sync: !DeferLogSyncs);
        LoggedDeleteStepForTests?.Invoke(2);
        var touched = new HashSet<string>();
        var removed = Remove(kind, key, end, touched);
        LoggedDeleteStepForTests?.Invoke(4);
        if (!DeferLogSyncs)
        {
            SyncRemovals(touched);
        }
        else
        {
            foreach (var directory in touched)
            {
                Unsynced?.Add(directory); // the background sync's, or the next step that syncs and so orders itself
            }
        }

        state.EndChange();
        return removed;
    }

    /// <summary>
    /// Removes the keys of the log's last record again when it only removes keys (a logged delete a dead writer or a power
    /// loss may have left undone), cutting a torn last frame first; call within recovery's change.
    /// </summary>
    private void RecoverLoggedDelete()
    {
        if (LoggedDeletesAfter is not { } after)
        {
            return;
        }

        List<KeyChange> changes;
        try
        {
            var (sequence, record) = Log.Last(cutTornAppend: true);
            if (sequence <= after || record is null)
            {
                return;
            }

            changes = ChangeRecord.Read(record, [], []);
        }
        catch (Exception e) when (e is StoreFormatException or FormatException)
        {
            return; // a damaged log is reported to its readers and by verify, naming the segment
        }

        if (changes.Count == 0 || changes.Exists(c => c.Kind == KeyChangeKind.Put))
        {
            return;
        }

        var touched = new HashSet<string>();
        foreach (var change in changes)
        {
            _ = Remove(change.Kind, change.Key, change.End, touched);
        }

        SyncRemovals(touched);
    }

    private long Remove(KeyChangeKind kind, ReadOnlySpan<byte> key, ReadOnlySpan<byte> end, HashSet<string> touched)
    {
        if (kind == KeyChangeKind.DeleteRange)
        {
            return DeleteRange(key.ToArray(), end.ToArray(), touched);
        }

        if (Delete(key) is { } directory)
        {
            touched.Add(directory);
        }

        LoggedDeleteStepForTests?.Invoke(3);
        return 0;
    }

    /// <summary>Makes removals durable before the change ends: their directories, or the whole file system while a split's moves are unsynced.</summary>
    private void SyncRemovals(HashSet<string> touched)
    {
        if (!SplitUnsynced)
        {
            foreach (var directory in touched)
            {
                SyncDirectory(directory);
            }

            return;
        }

        FileSystemSync.Sync(root); // a directory sync could make some of the split's moves durable without the others
        DropSyncedSplit();
    }
}

using DataStore.Batches;
using DataStore.Platform;

namespace DataStore.FileSystem;

// Batches through the journal, and recovery of what a dead writer left (a split, a journaled batch, temporary files).
internal sealed partial class TreeWriter
{
    /// <summary>Journals <paramref name="batch"/>, applies it, makes it durable and removes the journal; returns how many keys its range deletes removed.</summary>
    public long Apply(WriteBatch batch)
    {
        state.BeginChange();
        var sequence = LogCommits ? Log.Latest() + 1 : 0;
        Unsynced?.Sync(root, MovesUnsynced); // the Relaxed writes before it, or a power loss could keep the batch and lose them
        BatchJournal.Write(batch, NewTemporary(), _journal, sequence);
        DirectorySync.Sync(root);
        var puts = 0;
        for (var i = 0; i < batch.OperationCount; i++)
        {
            puts += batch.Operation(i).Kind == BatchEntryKind.Put ? 1 : 0;
        }

        var perFile = puts <= PerFileSyncLimit;
        var touched = new HashSet<string>();
        var removed = 0L;

        // As written, as the journal replays it (applying in key order was measured twice with no gain here).
        for (var i = 0; i < batch.OperationCount; i++)
        {
            var entry = batch.Operation(i);
            removed += ApplyOne(entry.Kind, batch.First(entry), batch.Second(entry), perFile, touched);
        }

        Finish(perFile, touched, sequence, sequence > 0 ? _record.Clear().Add(batch).Bytes : default);
        return removed;
    }

    /// <summary>Finishes whatever a dead writer left: a split, then a journaled batch; removes stale temporary files.</summary>
    /// <remarks>
    /// A failure that is not the file system's (a bug) becomes a <see cref="DataStoreException"/> naming the store; the
    /// journal stays, so the change is still completed whole once the cause is gone, and nothing half-applied is shown.
    /// </remarks>
    /// <param name="restarted">True at the first open since the machine started (a power loss may have come): a logged delete is completed again (ADR 0020).</param>
    public void Recover(bool restarted = false)
    {
        try
        {
            RecoverUnfinished(restarted);
        }
        catch (Exception e) when (e is not DataStoreException && !FileSystemErrors.IsFileSystemError(e))
        {
            throw new DataStoreException(StoreFailure.Engine, root, StoreBackend.FileSystem,
                $"completing the unfinished change recorded in '{_journal}' failed ({e.GetType().Name}: {e.Message}); the journal stays and the next open or write completes it once the cause is fixed.", e);
        }
    }

    private void RecoverUnfinished(bool restarted)
    {
        var writerDied = (state.Changes & 1) != 0;
        var restartLog = restarted && LoggedDeletesAfter is not null && Log.HasUnsyncedRecords; // a Relaxed log may disagree with the data (ADR 0020)

        // Readers in other processes must not read files the replay below rewrites in place.
        state.BeginChange();
        _preImages.BeginWrite();
        Splitter.FinishPending();
        if ((writerDied || restarted) && !restartLog)
        {
            RecoverLoggedDelete(); // the oldest commit recovery may complete: the journal and pending Puts come after it
        }

        // A pending Put precedes any journal (a journal is removed, durably, before its lock is let go), and a power loss
        // can leave one (its rename into place not synced) beside a later journal that rewrites the same key.
        RecoverLoggedPuts(restartLog);
        if (File.Exists(_journal))
        {
            var touched = new HashSet<string>();
            if (BatchJournal.Read(_journal, out var sequence) is { } operations)
            {
                foreach (var operation in operations)
                {
                    _ = ApplyOne(operation.Kind, operation.First, operation.Second, perFile: false, touched);
                }

                FileSystemSync.Sync(root);
                if (sequence > 0 && !restartLog)
                {
                    Log.Recover(sequence, _record.Clear().Add(BatchJournal.ToBatch(operations)).Bytes);
                }
            }

            File.Delete(_journal);
        }

        if (restartLog)
        {
            _ = Log.Restart(); // after the data is complete: subscribers resynchronize and re-read it
        }
        else if (writerDied && LoggedDeletesAfter is not null)
        {
            Log.FinishRestart(); // a writer killed inside a restart
        }

        foreach (var stale in TemporaryFiles.Stale(_temporary))
        {
            File.Delete(stale);
        }

        state.BumpLayout();
        state.EndChange();
    }

    /// <summary>Removes stale temporary files. Directories stay, even empty: readers keep handles on them (<see cref="DirectoryHandles"/>).</summary>
    public void Compact()
    {
        _preImages.RemoveLeftovers();
        foreach (var stale in TemporaryFiles.Stale(_temporary))
        {
            File.Delete(stale);
        }
    }

    private long ApplyOne(BatchEntryKind kind, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second, bool perFile, HashSet<string> touched)
    {
        BeforeOperationForTests?.Invoke();
        switch (kind)
        {
            case BatchEntryKind.Put:
                touched.Add(Put(first, second, perFile));
                return 0;
            case BatchEntryKind.Delete:
                if (Delete(first) is { } directory)
                {
                    touched.Add(directory);
                }

                return 0;
            case BatchEntryKind.DeletePrefix:
                return DeleteRange(first.ToArray(), KeyOrder.TryGetPrefixEnd(first, out var end) ? end : [], touched);
            case BatchEntryKind.DeleteRange:
                return DeleteRange(first.ToArray(), second.ToArray(), touched);
            default:
                return 0;
        }
    }

    /// <summary>Makes an applied change durable, appends its change-log record (a <paramref name="sequence"/> above 0), then drops the journal and ends the change.</summary>
    public void Finish(bool perFile, HashSet<string> touched, long sequence = 0, ReadOnlySpan<byte> record = default)
    {
        // A split whose moves are not synced yet (LeafSplitter) needs the whole file system synced: a directory sync
        // could make some of its moves durable without the others. A split being prepared needs only its leaf synced
        // too (its marker: see PreparedLeaf); before, it synced the file system under the lock as well.
        var split = MovesUnsynced;
        if (perFile && !split)
        {
            touched.UnionWith(TakeNewParents());
            if (PreparedLeaf() is { } leaf)
            {
                touched.Add(leaf);
            }

            foreach (var directory in touched)
            {
                SyncDirectory(directory);
            }
        }
        else
        {
            TakeNewParents();
            if (sequence > 0)
            {
                // Appended unsynced: the file system's sync below makes it durable with the data. Readers wait for the
                // change counter to be even, so none sees the record before the keys it names.
                Log.Append(sequence, record, sync: false);
            }

            FileSystemSync.Sync(root);
            if (split)
            {
                DropSyncedSplit();
            }
        }

        if (sequence > 0 && perFile && !split)
        {
            Log.Append(sequence, record); // after the data, so a subscriber can read what it names; before the journal goes
        }

        // The journal's removal must be durable too, or a power loss could replay it over later durable writes.
        File.Delete(_journal);
        DirectorySync.Sync(root);
        state.EndChange();
    }
}

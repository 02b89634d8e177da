using DataStore.Backup;

namespace DataStore.LiteDb;

internal sealed partial class LiteDbStore
{
    protected override void CompactCore()
    {
        using (_writeLock.Enter())
        {
            // Every scan's snapshot, also one whose cursor is not handed out yet, must end before the engine is replaced.
            if (!_engine.WaitUntilNoSnapshots())
            {
                throw new StoreTimeoutException(_directory, StoreBackend.LiteDb, _timeout,
                    $"Compact waited {_timeout.TotalSeconds:0.###} s for open scans to be disposed; dispose scans before compacting, or retry.");
            }

            Guarded("Compact", () =>
            {
                using var turn = _engine.Engine();
                var compacted = _db.Compact(_directory, _keys);
                compacted.Table.RequireChecksums = _db.Table.RequireChecksums;
                _db = compacted;
                return 0;
            });
        }
    }

    /// <summary>
    /// Checkpoints LiteDB's log into the data file and copies the file into <paramref name="destination"/> under the
    /// write lock: committed writes still only in the log are included, the copy never splits a value from its chunks,
    /// and writers wait only for a file copy (about 0.1 s for 200,000 pairs), not for a document-by-document rewrite
    /// that made a running app's writes time out. Reads and scans go on.
    /// </summary>
    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        using (_writeLock.Enter())
        {
            Guarded("Backing up", () =>
            {
                using var turn = _engine.Engine();
                _db.CopyInto(destination, bytes => progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, bytes, null, null)), cancellationToken);
                return 0;
            });
        }

        BackupFiles.CopyManifest(_directory, destination);
    }

    /// <summary>
    /// Holds the write lock until the cursor is disposed (writers wait, each up to the timeout) and reads in chunks,
    /// each in a read transaction of its own, so memory does not grow with the store (see <see cref="LiteDbWholeRead"/>).
    /// </summary>
    internal override IKeyValueCursor ReadWholeStoreCore(bool keysOnly)
    {
        LiteDbWriterHold hold;
        try
        {
            hold = LiteDbWriterHold.Take(_writeLock);
        }
        catch (IOException e)
        {
            throw _errors.Translate(e, "Reading the whole store");
        }

        var cursor = new LiteDbWholeRead(
            hold,
            start => new LiteDbScan(_engine, () => _db.Table, start, default, keysOnly, static action => action()),
            e => LiteDbErrors.IsStoreFailure(e) ? _errors.Translate(e, "Reading the whole store") : e,
            _cursors.Forget);
        _cursors.Track(cursor);
        return cursor;
    }

    /// <summary>
    /// Reads every document and checks each value is whole, 256 documents at a time under the write lock (so chunked
    /// values are stable), letting writers in between the chunks.
    /// </summary>
    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken)
    {
        var check = new LiteDbIntegrity();
        bool more;
        do
        {
            using (_writeLock.Enter())
            {
                more = Guarded("Checking integrity", () =>
                {
                    using var turn = _engine.Engine();
                    return check.NextChunk(_db, cancellationToken);
                });
            }
        }
        while (more);

        return check.Problems;
    }
}

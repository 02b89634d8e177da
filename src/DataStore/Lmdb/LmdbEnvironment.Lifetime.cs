using System.Diagnostics;

namespace DataStore.Lmdb;

internal sealed partial class LmdbEnvironment
{
    private static LmdbEnvironment Open(string directory, LmdbErrors errors, long initialMapSize)
    {
        var (writers, openFile) = StoreFiles.Guard(directory, StoreBackend.Lmdb, () =>
        {
            var writer = LmdbWriterLock.Open(directory, errors);
            try
            {
                return (writer, new LmdbFileLock(System.IO.Path.Combine(directory, OpenLockFile)));
            }
            catch
            {
                writer.Dispose();
                throw;
            }
        });

        var environment = new LmdbEnvironment(directory, writers, openFile);
        try
        {
            // Every process holds the open lock shared; Compact, and the conversion of an LMDB 0.9 file, take it
            // exclusive to replace the data file.
            if (!Files.LmdbOpenCheck.ConvertIfOld(directory, environment._dataFile, openFile, errors))
            {
                throw new StoreTimeoutException(directory, StoreBackend.Lmdb, errors.Timeout,
                    $"another process kept the store locked (for Compact, or open while this one converts it from LMDB 0.9) longer than the timeout ({errors.Timeout.TotalSeconds:0.###} s).");
            }

            var exclusive = environment.TakeOpenLock(openFile, errors); // puts the last synced state back after a restart

            StoreFiles.Guard(directory, StoreBackend.Lmdb, () =>
            {
                File.Delete(environment._dataFile + CompactSuffix); // left by a Compact that died before its rename
                return 0;
            });
            environment.OpenHandle(errors, initialMapSize);
            environment.FinishOpen(openFile, errors, exclusive); // a recorded, pinned synced state before any write or reader check
            environment.CheckReaders(errors);
            return environment;
        }
        catch
        {
            environment.CloseEnvironment();
            writers.Dispose();
            openFile.Dispose();
            throw;
        }
    }

    // An existing store opens at the map size recorded in its file (the largest any process grew it to); a new
    // store starts at initialMapSize.
    private unsafe void OpenHandle(LmdbErrors errors, long initialMapSize)
    {
        var exists = File.Exists(_dataFile) && new FileInfo(_dataFile).Length > 0;
        StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
        {
            Files.LmdbFormatRecord.Check(Directory, exists ? Files.LmdbOpenCheck.Inspect(Directory, _dataFile) : null);
            return 0;
        });
        errors.Check(LmdbNative.EnvCreate(out var env), "creating the LMDB environment");
        try
        {
            errors.Check(LmdbNative.EnvSetMaxReaders(env, MaxReaders), "setting the reader table size");
            errors.Check(LmdbNative.EnvSetMaxDbs(env, NamedDatabases), "setting the number of named databases");
            errors.Check(LmdbNative.EnvSetMapSize(env, exists ? 0 : (nuint)initialMapSize), "setting the map size");
            // Every commit, Relaxed or Durable, syncs its pages and leaves its meta page unsynced (MDB_NOMETASYNC), so a
            // meta page never reaches the disk before the pages it points to, in whatever order the disk writes back
            // (ADR 0006, Power loss). A Durable write also waits for the group sync that makes the meta page durable.
            errors.Check(LmdbNative.EnvOpen(env, _dataFile, LmdbNative.NoSubDir | LmdbNative.NoTls | LmdbNative.NoMetaSync, Convert.ToInt32("664", 8)), "opening the LMDB environment");
            errors.Check(LmdbNative.TxnBegin(env, 0, LmdbNative.ReadOnly, out var txn), "opening the database");
            try
            {
                errors.Check(LmdbNative.DbiOpen(txn, null, 0, out var dbi), "opening the database");
                if (exists)
                {
                    Files.LmdbTreeCheck.Run(Directory, _dataFile); // inside the read transaction: no page it reads is reused meanwhile
                }

                // The change feed's layout, when the file has it; committing the read transaction keeps its handles open.
                var feedLayout = TryOpenFeedLayout(txn, errors, 0, out var pairs, out var feed);
                errors.Check(LmdbNative.TxnCommit(txn), "opening the database");
                txn = 0;
                (Dbi, FeedDbi) = feedLayout ? (pairs, feed) : (dbi, 0u);
            }
            finally
            {
                if (txn != 0)
                {
                    LmdbNative.TxnAbort(txn);
                }
            }
        }
        catch
        {
            LmdbNative.EnvClose(env);
            throw;
        }

        _env = env;
    }

    /// <summary>
    /// Closes the environment once the last store let go of it. A thread still inside a call on a disposed store
    /// (a misuse, but one that must not crash the process) is waited for: a write through the writer lock, a read
    /// through the map gate; a call that starts later finds the environment closed and throws ObjectDisposedException.
    /// </summary>
    private void CloseForGood() => Sync.RunBetweenSyncs(() => // a checkpoint syncs without the writer lock (ADR 0006)
    {
        lock (_writeLock)
        {
            try
            {
                FinishBackgroundCheckpoint(_syncErrors!);
            }
            catch (DataStoreException)
            {
                // Closing goes on: the close's own sync came first, so this checkpoint only repeats it.
            }

            Gate.BeginExclusive();
            try
            {
                _closed = true;
                CloseEnvironment();
            }
            finally
            {
                Gate.EndExclusive();
            }
        }
    });

    private void CloseEnvironment()
    {
        if (_env == 0)
        {
            return;
        }

        CloseIdleCursors();
        DropPin();
        _readers.Drain(LmdbNative.TxnAbort);
        foreach (var seat in Gate.Seats())
        {
            if (seat.Transaction != 0)
            {
                LmdbNative.TxnAbort(seat.Transaction);
                seat.Transaction = 0;
            }
        }

        LmdbNative.EnvClose(_env);
        _env = 0;
    }

    /// <summary>
    /// Replaces the data file with a compacting copy (<c>mdb_env_copy2</c> with <c>MDB_CP_COMPACT</c>), so free pages
    /// go back to the file system. Needs the store to itself: no open scan in this process, no other process. Waits
    /// for that up to the timeout in short attempts, holding the writer locks only during each attempt, so the
    /// writers of this and every other process carry on while it waits.
    /// </summary>
    public void Compact(LmdbErrors errors)
    {
        var clock = Stopwatch.StartNew();
        string? blocker = null;
        var compacted = false;
        while (true)
        {
            // Between syncs, and before the writer locks: a sync takes the writer locks itself (to pin and record).
            Sync.RunBetweenSyncs(() => compacted = TryCompact(errors, clock, ref blocker));
            if (compacted)
            {
                return;
            }

            if (clock.Elapsed >= errors.Timeout)
            {
                throw blocker is null ? errors.TimedOut() : new StoreTimeoutException(Directory, StoreBackend.Lmdb, errors.Timeout, blocker);
            }

            Thread.Sleep(CompactRetryPause);
        }
    }

    // One attempt: true when it compacted; otherwise false, with blocker set to why when something other than a
    // writer holding the writer locks for the rest of the time stopped it (another process has the store open, or
    // this process has scans open).
    private bool TryCompact(LmdbErrors errors, Stopwatch clock, ref string? blocker)
    {
        if (!Monitor.TryEnter(_writeLock, Left(errors, clock)))
        {
            return false;
        }

        try
        {
            ThrowIfClosed(errors);
            if (!TakeWriters(errors, Left(errors, clock)))
            {
                return false;
            }

            try
            {
                if (Volatile.Read(ref _openCursors) > 0)
                {
                    blocker = "Compact waited for this process's open scans to be disposed longer than the timeout; dispose every cursor before calling Compact.";
                    return false;
                }

                if (!_openFile.TryTake(exclusive: true, TimeSpan.Zero))
                {
                    // A failed flock conversion gives the shared lock up: take it back before other writers come in.
                    _ = _openFile.TryTake(exclusive: false, TimeSpan.MaxValue);
                    blocker = "Compact replaces the data file, so it needs the store to itself, but another process kept it open longer than the timeout. Run Compact when the other programs have closed the store.";
                    return false;
                }

                try
                {
                    CompactLocked(errors);
                    return true;
                }
                finally
                {
                    _ = _openFile.TryTake(exclusive: false, TimeSpan.MaxValue);
                }
            }
            finally
            {
                _writers.Release();
            }
        }
        finally
        {
            Monitor.Exit(_writeLock);
        }
    }

    private void CompactLocked(LmdbErrors errors)
    {
        FinishBackgroundCheckpoint(errors); // its record would name the old file's meta pages
        var copy = _dataFile + CompactSuffix;
        StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
        {
            File.Delete(copy);
            return 0;
        });
        errors.Check(LmdbNative.EnvCopy2(Handle(errors), copy, LmdbNative.CopyCompact), "writing the compacted copy");
        var size = MapSize;
        StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
        {
            using (var file = new FileStream(copy, FileMode.Open, FileAccess.ReadWrite))
            {
                file.Flush(flushToDisk: true);
            }

            ForgetSyncedState(errors); // the record names the old file's meta pages
            Gate.BeginExclusive();
            try
            {
                CloseEnvironment();
                File.Move(copy, _dataFile, overwrite: true);
                Platform.DirectorySync.Sync(Directory);
                OpenHandle(errors, size);
                errors.Check(LmdbNative.EnvSetMapSize(_env, (nuint)size), "restoring the map size after Compact");
            }
            finally
            {
                Gate.EndExclusive();
            }

            PinBeforeWriteLocked(errors);
            return 0;
        });
    }

    private static readonly TimeSpan CompactRetryPause = TimeSpan.FromMilliseconds(50);

    private static TimeSpan Left(LmdbErrors errors, Stopwatch clock)
    {
        var left = errors.Timeout - clock.Elapsed;
        return left < TimeSpan.Zero ? TimeSpan.Zero : left;
    }
}

using System.Diagnostics;
using DataStore.Platform;

namespace DataStore.Lmdb;

/// <summary>
/// Relaxed commits without a sync (ADR 0006, "Relaxed commits without a sync"): each sync pins the transaction it
/// covers with a read transaction (so LMDB reuses none of its pages), syncs, and records both meta pages in
/// <see cref="LmdbSyncedState"/>; an open after a restart of the machine puts the recorded meta pages back.
/// </summary>
internal sealed partial class LmdbEnvironment
{
    private static readonly TimeSpan RestoreAttempt = TimeSpan.FromMilliseconds(50);

    // Null where the boot cannot be told apart (not Linux, or no boot id): then every commit syncs its pages, as before.
    private readonly LmdbSyncedState? _syncedState;
    private LmdbErrors? _syncErrors;
    private int _durableStores;
    private byte[]? _dataFileZ;

    /// <summary>Opens the data file for reading (<c>O_NOATIME</c>) by a path made once: every checkpoint reads the meta pages and syncs the file.</summary>
    private int OpenDataFile()
    {
        var fd = PosixFile.OpenRead(_dataFileZ ??= System.Text.Encoding.UTF8.GetBytes(_dataFile + "\0"));
        return fd >= 0 ? fd : throw new FileNotFoundException($"The LMDB data file '{_dataFile}' is missing.", _dataFile);
    }

    /// <summary>
    /// True when commits skip their page sync now: a synced state is recorded and pinned. Durable commits too: their
    /// group sync is a checkpoint (<see cref="SyncNow"/>), whose sync and record make them durable, and until it a power
    /// loss takes them back to the last record like a Relaxed commit (ADR 0006, "Durable commits without a page sync").
    /// </summary>
    internal bool CommitsWithoutSync => _syncedState is not null && _pin != 0;

    /// <summary>True where commits may skip their sync (the boot can be told apart): the synced state is recorded.</summary>
    internal bool HasSyncedState => _syncedState is not null;

    private static LmdbSyncedState? SyncedStateFor(string directory) =>
        OperatingSystem.IsLinux() && BootIdentity.Current != 0 ? new LmdbSyncedState(System.IO.Path.Combine(directory, LmdbSyncedState.FileName)) : null;

    private uint WriteFlags => CommitsWithoutSync ? LmdbNative.NoSync : 0;

    /// <summary>
    /// Takes the open lock: shared, unless the machine restarted since the recorded synced state and the data file's
    /// meta pages moved past it; then exclusive (so one process restores), and puts the recorded meta pages back.
    /// Returns true when it holds the lock exclusive (released to shared by <see cref="FinishOpen"/>).
    /// </summary>
    private bool TakeOpenLock(LmdbFileLock openFile, LmdbErrors errors)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (RecordToRestore() is null)
            {
                if (openFile.TryTake(exclusive: false, Left(errors, clock)))
                {
                    return false;
                }
            }
            else if (openFile.TryTake(exclusive: true, RestoreAttempt))
            {
                if (RecordToRestore() is { } record)
                {
                    StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
                    {
                        Restore(record);
                        return 0;
                    });
                }

                return true;
            }

            if (clock.Elapsed >= errors.Timeout)
            {
                throw new StoreTimeoutException(Directory, StoreBackend.Lmdb, errors.Timeout,
                    $"another process kept the store locked (for Compact, or while it restored the last synced state after a restart) longer than the timeout ({errors.Timeout.TotalSeconds:0.###} s).");
            }
        }
    }

    // The record to put back: the machine restarted since it was written and the data file's meta pages differ from it.
    private LmdbSyncedState.Record? RecordToRestore()
    {
        if (_syncedState is null || !File.Exists(_dataFile))
        {
            return null;
        }

        return StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
            _syncedState.Read() is { } record && record.Boot != BootIdentity.Current && !ReadMetas(record.PageSize).AsSpan().SequenceEqual(record.Metas)
                ? record
                : null);
    }

    // Before any process of this boot opened the environment: writes the recorded meta pages back and syncs them.
    private void Restore(LmdbSyncedState.Record record)
    {
        using var file = new FileStream(_dataFile, FileMode.Open, FileAccess.ReadWrite, FileShare.ReadWrite);
        RandomAccess.Write(file.SafeFileHandle, record.Metas.AsSpan(0, LmdbSyncedState.MetaBytes), 0);
        RandomAccess.Write(file.SafeFileHandle, record.Metas.AsSpan(LmdbSyncedState.MetaBytes), record.PageSize);
        file.Flush(flushToDisk: true);
    }

    /// <summary>
    /// After the environment opened: an open that restored (or held the lock to) records the state it opened at, in
    /// this boot, before other processes may open; otherwise the first write records and pins (so an open never waits
    /// for another process's writer).
    /// </summary>
    private void FinishOpen(LmdbFileLock openFile, LmdbErrors errors, bool exclusive)
    {
        _syncErrors = errors;
        if (_syncedState is not null && exclusive)
        {
            Checkpoint();
        }

        if (exclusive)
        {
            _ = openFile.TryTake(exclusive: false, TimeSpan.MaxValue);
        }
    }

    /// <summary>Counts a Durable store of this process: from then on a combined group's leader waits for its group sync.</summary>
    internal void AddDurableStore() => Interlocked.Increment(ref _durableStores);

    // The group sync's action: a plain mdb_env_sync, or, with a synced state, a checkpoint under the writer locks.
    private void SyncNow()
    {
        if (_syncedState is null)
        {
            LmdbException.Check(LmdbNative.EnvSync(_env, 1));
            return;
        }

        Checkpoint();
    }

    // Before the data file is replaced (Compact): with everything synced, a missing record means "open as is".
    private void ForgetSyncedState(LmdbErrors errors)
    {
        if (_syncedState is null)
        {
            return;
        }

        errors.Check(LmdbNative.EnvSync(Handle(errors), 1), "syncing before Compact");
        StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
        {
            _syncedState.Delete();
            return 0;
        });
    }

    // Both meta pages' first bytes, in a new array: a checkpoint's lives until it is recorded, and checkpoints overlap
    // (the timer's, a writer's, the background one), so none is reused.
    private byte[] ReadMetas(uint pageSize)
    {
        var metas = new byte[2 * LmdbSyncedState.MetaBytes];
        var fd = OpenDataFile();
        try
        {
            _ = PosixFile.ReadAt(fd, metas.AsSpan(0, LmdbSyncedState.MetaBytes), 0);
            _ = PosixFile.ReadAt(fd, metas.AsSpan(LmdbSyncedState.MetaBytes, LmdbSyncedState.MetaBytes), pageSize);
        }
        finally
        {
            PosixFile.CloseFile(fd);
        }

        return metas;
    }
}

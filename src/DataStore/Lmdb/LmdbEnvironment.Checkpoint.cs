using DataStore.Platform;

namespace DataStore.Lmdb;

/// <summary>
/// The checkpoint of Relaxed commits without a sync (ADR 0006): pin the newest transaction with a read transaction and
/// read its meta pages, both under the writer locks (a few microseconds), then sync the data file and record the pinned
/// state in <see cref="LmdbSyncedState"/>, and only then let the previous pin go. Every checkpoint syncs with the writers
/// free; the one a burst's writing calls for starts in the background (<c>LmdbEnvironment.GrowthCheckpoint.cs</c>).
/// </summary>
/// <remarks>
/// The sync needs no writer lock: the pages of the pinned transaction were written before its meta page, LMDB reuses
/// none of them while the pin lives (nor any page of a later transaction: those are freed after the pin), and commits
/// made during the sync are not part of the record. Records are written under a lock of their own (in this process and,
/// through <c>lmdb-synced.lock</c>, across processes); they may arrive out of transaction order, and the newest is the
/// one with the highest transaction, so a late, older record never hides a newer one.
/// </remarks>
internal sealed partial class LmdbEnvironment
{
    private const string RecordLockFile = "lmdb-synced.lock";

    private readonly object _recordGate = new();
    private LmdbFileLock? _recordLock;
    private nint _pin;
    private ulong _pinned;

    // The group sync's (and the timer's) checkpoint: pins under the writer locks, syncs and records without them.
    private void Checkpoint()
    {
        var errors = _syncErrors!;
        if (!Monitor.TryEnter(_writeLock, errors.Timeout))
        {
            throw errors.TimedOut();
        }

        SyncPoint point;
        try
        {
            if (_env == 0)
            {
                return;
            }

            if (!TakeWriters(errors, errors.Timeout))
            {
                throw errors.TimedOut();
            }

            try
            {
                point = PinLocked(errors);
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

        SyncAndRecord(point, errors);
    }

    // Holding both writer locks (a process's first write, or its first after its pin went): the whole checkpoint.
    private void CheckpointLocked(LmdbErrors errors) => SyncAndRecord(PinLocked(errors), errors);

    /// <summary>Holding both writer locks: pins the newest transaction and reads the meta pages that name it.</summary>
    private SyncPoint PinLocked(LmdbErrors errors)
    {
        var env = Handle(errors);
        nint pin;
        int rc;
        while ((rc = LmdbNative.TxnBegin(env, 0, LmdbNative.ReadOnly, out pin)) == LmdbNative.MapResized)
        {
            ResizeLocked(0, errors);
        }

        errors.Check(rc, "pinning the synced state");
        try
        {
            errors.Check(LmdbNative.EnvInfoOf(env, out var info), "reading the environment");
            errors.Check(LmdbNative.Stat(pin, LmdbNative.MainDbi, out var stat), "reading the page size");
            errors.Check(LmdbNative.Stat(pin, Dbi, out var pairs), "reading the tree's shape");
            var metas = StoreFiles.Guard(Directory, StoreBackend.Lmdb, () => ReadMetas(stat.PageSize));
            NoteTreeShape(pairs);
            return new SyncPoint(pin, info.LastTransaction, stat.PageSize, metas, (long)info.LastPage, _pagesWritten);
        }
        catch
        {
            LmdbNative.TxnAbort(pin);
            throw;
        }
    }

    /// <summary>
    /// With <paramref name="point"/> pinned (writer locks held or not): syncs the data file, records the point, and makes
    /// its pin this process's, letting the previous one go. A failure lets the new pin go and keeps the old one.
    /// </summary>
    private void SyncAndRecord(SyncPoint point, LmdbErrors errors)
    {
        var pin = point.Pin;
        try
        {
            SyncDataFile();
            lock (_recordGate)
            {
                if (_pin != 0 && point.Transaction <= _pinned)
                {
                    return; // a newer state was recorded meanwhile (by another checkpoint of this process): keep its pin
                }

                var file = _recordLock ??= StoreFiles.Guard(Directory, StoreBackend.Lmdb, () => new LmdbFileLock(System.IO.Path.Combine(Directory, RecordLockFile)));
                if (!file.TryTake(exclusive: true, errors.Timeout))
                {
                    throw errors.TimedOut();
                }

                try
                {
                    StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
                    {
                        _syncedState!.Write(new LmdbSyncedState.Record(point.Transaction, BootIdentity.Current, point.PageSize, point.Metas));
                        return 0;
                    });
                }
                finally
                {
                    file.Release();
                }

                _pinned = point.Transaction;
                NoteRecorded(point);
                pin = Interlocked.Exchange(ref _pin, pin);
            }
        }
        finally
        {
            if (pin != 0)
            {
                LmdbNative.TxnAbort(pin);
            }
        }
    }

    // fdatasync of the data file through a descriptor of our own, as mdb_env_sync does it: the same pages (a sync is of the
    // file, not of a descriptor), without reading the meta page through the map, so a resize never waits for a slow disk.
    // A bare open(2) (checkpoints run only where the synced state is kept, on Linux): .NET's open also runs fstat, and on a
    // kernel with fine-grained timestamps a file whose times were read gets new ones at its next write, so every commit
    // dirtied the inode and each sync wrote it; and writers checkpoint often, so nothing is allocated.
    private void SyncDataFile() => StoreFiles.Guard(Directory, StoreBackend.Lmdb, () =>
    {
        var fd = OpenDataFile();
        try
        {
            FileDataSync.Flush(fd);
        }
        finally
        {
            PosixFile.CloseFile(fd);
        }

        return 0;
    });

    /// <summary>Lets this process's pin go when it committed nothing since and others moved on, so LMDB can reuse pages; its next write records and pins again.</summary>
    internal void ReleaseIdlePin()
    {
        lock (_writeLock)
        {
            if (_pin == 0 || _env == 0 || Sync.Dirty || LmdbNative.EnvInfoOf(_env, out var info) != LmdbNative.Success || info.LastTransaction <= Volatile.Read(ref _pinned))
            {
                return;
            }

            DropPin();
        }
    }

    // Holding the writer locks, before a write transaction: a process writes only while it holds a pin at or before the newest record.
    private void PinBeforeWriteLocked(LmdbErrors errors)
    {
        if (_syncedState is not null && _pin == 0)
        {
            CheckpointLocked(errors);
        }
    }

    private void DropPin()
    {
        var pin = Interlocked.Exchange(ref _pin, 0);
        if (pin != 0)
        {
            LmdbNative.TxnAbort(pin);
        }
    }

    /// <summary>A pinned transaction and its meta pages, to be synced and recorded, with the file's last page and the pages written by then.</summary>
    private readonly record struct SyncPoint(nint Pin, ulong Transaction, uint PageSize, byte[] Metas, long LastPage, long PagesWritten);
}

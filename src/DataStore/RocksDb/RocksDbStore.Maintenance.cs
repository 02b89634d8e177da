using System.Runtime.InteropServices;
using DataStore.Backup;
using Rocks = DataStore.RocksDb.Interop.RocksDbNative;

namespace DataStore.RocksDb;

internal sealed unsafe partial class RocksDbStore
{
    /// <summary>
    /// A RocksDB checkpoint: memtables flushed, then the live files hard-linked into <paramref name="destination"/>
    /// (copied when it is on another file system) with the WAL copied up to one consistent point; writers keep going.
    /// Then the manifest. One native call, so progress comes before and after it and cancellation only between.
    /// </summary>
    internal override void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, 0, null, null));
        cancellationToken.ThrowIfCancellationRequested();
        Directory.Delete(destination); // RocksDB creates the checkpoint directory itself and refuses an existing one
        Acquire();
        try
        {
            EnsureWritable(); // a checkpoint needs the writable instance (it flushes and holds file deletions)
            var error = IntPtr.Zero;
            var checkpoint = Rocks.rocksdb_checkpoint_object_create(Db, out error);
            RocksDbErrors.ThrowIf(error, _directory, "Creating a checkpoint");
            var target = Marshal.StringToCoTaskMemUTF8(destination);
            try
            {
                Rocks.rocksdb_checkpoint_create(checkpoint, target, 0, out error);
                RocksDbErrors.ThrowIf(error, _directory, $"Writing a checkpoint to {destination}");
            }
            finally
            {
                Marshal.FreeCoTaskMem(target);
                Rocks.rocksdb_checkpoint_object_destroy(checkpoint);
            }
        }
        finally
        {
            Release();
        }

        cancellationToken.ThrowIfCancellationRequested();
        BackupFiles.CopyManifest(_directory, destination);
    }

    /// <summary>RocksDB's own check: <c>rocksdb_verify_checksum</c> reads every live .sst file and verifies each block's checksum.</summary>
    internal override IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        Acquire();
        try
        {
            var error = IntPtr.Zero;
            Rocks.rocksdb_verify_checksum(Db, out error);
            return error == IntPtr.Zero ? [] : [$"RocksDB checksum verification: {RocksDbErrors.TakeMessage(error)}."];
        }
        finally
        {
            Release();
        }
    }

    /// <summary>
    /// Writes the memtables to table files and waits: a cleanly closed store then lives in checksummed .sst files that
    /// verify can check, not only in its WAL (RocksDB's own close leaves WAL-only data where it is).
    /// </summary>
    private void FlushMemtables()
    {
        if (RocksDbFlush.AndWait(Db) is { } error)
        {
            // The WAL still holds everything, so the store stays whole; only the close is less tidy.
            RocksDbLog.CloseFlushFailed(_logger, _directory, error);
        }
    }
}

using DataStore.Backup;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.FileSystem;

/// <summary>
/// Writes a FileSystem store's backup from a snapshot scan (ADR 0022): the scan reads in chunks under the shared lock
/// and writers keep the pre-images it needs, so writers of every process wait at most one chunk however large the
/// store, and the copy is the store as it was when the backup began (never half a batch). Pairs go into a fresh store
/// in the destination in large batches; no journal, pending split, temporary, lock or state file is copied.
/// </summary>
internal static class FileSystemBackup
{
    // Pairs go into the copy in batches of this size, unsynced (the copy is synced once, as a whole, by StoreBackup):
    // a sync per batch made the app's fsyncs wait behind the backup's dirty data (ext4 ordered mode).
    private const int BatchPairs = 1024;
    private const int BatchBytes = 1 << 20;

    /// <summary>Writes every pair <paramref name="snapshot"/> returns into a new store at <paramref name="destination"/>, then the manifest of <paramref name="store"/>.</summary>
    public static void Write(IKeyValueCursor snapshot, string store, string destination, int maxEntries, IProgress<StoreProgress>? progress, CancellationToken cancellationToken)
    {
        long bytes = 0;
        var options = new DataStoreOptions { Path = destination, Backend = StoreBackend.FileSystem };
        using (var copy = FileSystemStore.Open(destination, Durability.Durable, options, NullLogger.Instance, maxEntries))
        {
            var batch = new WriteBatch();
            long batchBytes = 0;
            while (snapshot.MoveNext())
            {
                batch.Put(snapshot.Key, snapshot.Value);
                batchBytes += snapshot.Key.Length + snapshot.Value.Length;
                if (batch.OperationCount >= BatchPairs || batchBytes >= BatchBytes)
                {
                    cancellationToken.ThrowIfCancellationRequested();
                    copy.LoadUnsynced(batch);
                    bytes += batchBytes;
                    progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, bytes, null, null));
                    batch = new WriteBatch();
                    batchBytes = 0;
                }
            }

            copy.LoadUnsynced(batch);
            bytes += batchBytes;
        }

        // The copy's own opener creates fresh lock and state files.
        foreach (var file in new[] { "state", "turn.lock", "data.lock" })
        {
            File.Delete(Path.Combine(destination, file));
        }

        Directory.Delete(Path.Combine(destination, "tmp"), recursive: true);
        BackupFiles.CopyManifest(store, destination);
        progress?.Report(new StoreProgress(StorePhase.BackingUp, 0, bytes, null, bytes));
    }
}

using DataStore.Backup;
using DataStore.Transfer;

namespace DataStore;

/// <summary>Long operations on whole stores: export, import, migrate, backup, verify and compact.</summary>
/// <remarks>
/// Each runs on a thread-pool thread, reports progress through <see cref="IProgress{T}"/> (about ten times a
/// second at most) and stops with <see cref="OperationCanceledException"/> when its token is cancelled. The stores
/// stay usable by other threads and processes while an operation runs, except that on the FileSystem and LiteDb
/// backends export, migrate and verify make writers wait (each up to its <see cref="DataStoreOptions.Timeout"/>)
/// until they finish, which keeps their memory flat; so a progress callback must not write to the store being read.
/// </remarks>
public static class StoreMaintenance
{
    /// <summary>Writes every pair of <paramref name="store"/>, in key order, to <paramref name="destination"/> in the dump format (docs/dump-format.md).</summary>
    /// <returns>The digest of what was written, which the dump also records.</returns>
    public static Task<StoreDigest> ExportAsync(this IKeyValueStore store, Stream destination, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(destination);
        return DumpExport.RunAsync(store, destination, progress, cancellationToken);
    }

    /// <summary>Creates the store <paramref name="destination"/> describes from the dump in <paramref name="source"/>.</summary>
    /// <remarks>The new store appears only once the whole dump has been read and its checksum matched; a damaged dump leaves nothing behind unless <see cref="ImportOptions.KeepPartial"/> is set.</remarks>
    /// <returns>The digest of the imported pairs.</returns>
    public static Task<StoreDigest> ImportAsync(Stream source, DataStoreOptions destination, ImportOptions? options = null, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(destination);
        return DumpImport.RunAsync(source, destination, options ?? new ImportOptions(), progress, cancellationToken);
    }

    /// <summary>Copies every pair of <paramref name="source"/> into the new store <paramref name="destination"/> describes (any backend), then reads the copy back and compares digests.</summary>
    /// <returns>The digest both stores share; the returned task fails, and the copy is removed, when they differ.</returns>
    public static Task<StoreDigest> MigrateAsync(this IKeyValueStore source, DataStoreOptions destination, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(destination);
        return StoreMigration.RunAsync(source, destination, progress, cancellationToken);
    }

    /// <summary>Writes a consistent copy of <paramref name="store"/> into the new directory <paramref name="destinationPath"/> while other threads and processes keep writing.</summary>
    /// <remarks>The copy is made with the engine's own online copy (SQLite's backup API, a RocksDB checkpoint, an LMDB environment copy) and opens as a normal store.</remarks>
    public static Task<BackupResult> BackupAsync(this IKeyValueStore store, string destinationPath, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentException.ThrowIfNullOrWhiteSpace(destinationPath);
        return StoreBackup.RunAsync(store, destinationPath, progress, cancellationToken);
    }

    /// <summary>Runs the engine's own integrity check, then reads every pair, and reports what is wrong.</summary>
    /// <remarks>An engine can crash the process on a badly damaged file; the <c>datastore verify</c> command runs this in a child process for that reason.</remarks>
    public static Task<VerifyReport> VerifyAsync(this IKeyValueStore store, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(store);
        return StoreVerification.RunAsync(store, progress, cancellationToken);
    }

    /// <summary>Gives free space back to the file system, as <see cref="IKeyValueStore.Compact"/> does, reporting the store's size before and after.</summary>
    /// <returns>The number of bytes given back (0 when the store did not shrink).</returns>
    public static Task<long> CompactAsync(this IKeyValueStore store, IProgress<StoreProgress>? progress = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(store);
        return StoreCompaction.RunAsync(store, progress, cancellationToken);
    }
}

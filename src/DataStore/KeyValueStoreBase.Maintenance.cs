using DataStore.Backends;
using DataStore.Diagnostics;

namespace DataStore;

/// <summary>The maintenance part of every backend's store (<see cref="IBackendMaintenance"/>): backup, whole-store read and integrity check.</summary>
internal abstract partial class KeyValueStoreBase : IBackendMaintenance
{
    StoreTelemetry IBackendMaintenance.Telemetry => Telemetry;

    void IBackendMaintenance.ThrowIfDisposed() => ThrowIfDisposed();

    void IBackendMaintenance.Backup(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        BackupCore(destination, progress, cancellationToken);

    IKeyValueCursor IBackendMaintenance.ReadWholeStore(bool keysOnly) => ReadWholeStore(keysOnly);

    IReadOnlyList<string> IBackendMaintenance.CheckIntegrity(CancellationToken cancellationToken) => CheckIntegrityCore(cancellationToken);

    /// <summary>
    /// Writes a consistent copy of the store into the empty directory <paramref name="destination"/> (manifest
    /// included, so it opens as a normal store) while other threads and processes keep writing.
    /// </summary>
    /// <exception cref="NotSupportedException">The backend has no online copy.</exception>
    internal virtual void BackupCore(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken) =>
        throw new NotSupportedException($"The {Backend} backend cannot back up a store yet.");

    /// <summary>Opens a read of every pair in key order, as of when it opens, in memory that does not grow with the store.</summary>
    /// <remarks>
    /// Export, migrate, verify and their pair count read through this. Unlike a scan, a backend may keep writers
    /// (of every thread and process) waiting until the cursor is disposed, so the thread that holds it must not
    /// write to the store: its write would wait for the cursor and time out.
    /// </remarks>
    internal IKeyValueCursor ReadWholeStore(bool keysOnly)
    {
        using var call = Enter();
        return ReadWholeStoreCore(keysOnly);
    }

    /// <summary>
    /// Opens a consistent read of the whole store whose memory does not grow with the store, possibly by making
    /// writers wait while it is open (see <see cref="ReadWholeStore"/>); by default a snapshot scan of everything.
    /// </summary>
    internal virtual IKeyValueCursor ReadWholeStoreCore(bool keysOnly) => ScanCore([], default, keysOnly);

    /// <summary>Runs the engine's own integrity check and returns what it found wrong, one sentence each (empty when nothing).</summary>
    internal virtual IReadOnlyList<string> CheckIntegrityCore(CancellationToken cancellationToken) => [];
}

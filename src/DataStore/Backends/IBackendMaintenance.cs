using DataStore.Diagnostics;

namespace DataStore.Backends;

/// <summary>
/// What a backend's store offers beyond <see cref="IKeyValueStore"/> to the maintenance operations (backup, verify, export,
/// migrate, the owner's integrity check): every store DataStore opens has it, a store of the application's own making does not.
/// </summary>
internal interface IBackendMaintenance : IKeyValueStore
{
    /// <summary>Where the store's long operations are counted and timed.</summary>
    StoreTelemetry Telemetry { get; }

    /// <summary>Throws <see cref="ObjectDisposedException"/> once the store is disposed.</summary>
    void ThrowIfDisposed();

    /// <summary>Writes a consistent copy of the store into the empty directory <paramref name="destination"/> while others keep writing.</summary>
    /// <exception cref="NotSupportedException">The backend has no online copy.</exception>
    void Backup(string destination, IProgress<StoreProgress>? progress, CancellationToken cancellationToken);

    /// <summary>Opens a read of every pair in key order in memory that does not grow with the store; the reading thread must not write meanwhile.</summary>
    IKeyValueCursor ReadWholeStore(bool keysOnly);

    /// <summary>Runs the engine's own integrity check and returns what it found wrong, one sentence each (empty when nothing).</summary>
    IReadOnlyList<string> CheckIntegrity(CancellationToken cancellationToken);
}

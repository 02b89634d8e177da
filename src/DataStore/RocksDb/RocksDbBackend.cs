using DataStore.Backends;
using DataStore.RocksDb.Interop;
using Microsoft.Extensions.Logging;

namespace DataStore.RocksDb;

/// <summary>Opens RocksDB stores; found by configuration through <c>BackendCatalog</c>; available once RocksDB's native library loads.</summary>
internal sealed class RocksDbBackend : IBackendFactory, DataStore.Sharing.IBackendSharing
{
    /// <summary>The engine admits one process at a time, so the library shares its stores through an owner process (ADR 0015).</summary>
    public bool NeedsOwnerProcess => true;

    public bool IsAvailable => RocksDbLibrary.Failure is null;

    /// <summary>Which file was looked for, where, and why it did not load; null when it did.</summary>
    public string? WhyUnavailable => RocksDbLibrary.Failure;

    public KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings) =>
        RocksDbStore.Open(directory, durability, options, logger);
}

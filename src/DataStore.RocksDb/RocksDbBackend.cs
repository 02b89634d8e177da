using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.RocksDb;

/// <summary>Opens RocksDB stores; found by configuration through <c>BackendCatalog</c> (not built yet: unavailable).</summary>
internal sealed class RocksDbBackend : IBackendFactory
{
    public bool IsAvailable => false;

    public IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger) =>
        throw new NotSupportedException("The RocksDb backend is not built yet.");
}

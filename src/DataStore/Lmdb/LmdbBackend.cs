using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.Lmdb;

/// <summary>Opens Lmdb stores (not built yet: unavailable).</summary>
internal sealed class LmdbBackend : IBackendFactory
{
    public static readonly LmdbBackend Instance = new();

    public bool IsAvailable => false;

    public IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger) =>
        throw new NotSupportedException("The Lmdb backend is not built yet.");
}

using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.LiteDb;

/// <summary>Opens LiteDb stores (not built yet: unavailable).</summary>
internal sealed class LiteDbBackend : IBackendFactory
{
    public static readonly LiteDbBackend Instance = new();

    public bool IsAvailable => false;

    public IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger) =>
        throw new NotSupportedException("The LiteDb backend is not built yet.");
}

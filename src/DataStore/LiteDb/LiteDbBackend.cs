using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.LiteDb;

/// <summary>Opens LiteDB stores; always available (LiteDB is managed code).</summary>
internal sealed class LiteDbBackend : IBackendFactory
{
    public static readonly LiteDbBackend Instance = new();

    public bool IsAvailable => true;

    public IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, bool checksums) =>
        LiteDbStore.Open(directory, durability, options, logger, checksums: checksums);
}

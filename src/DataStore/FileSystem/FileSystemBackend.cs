using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

/// <summary>Opens FileSystem stores (not built yet: unavailable).</summary>
internal sealed class FileSystemBackend : IBackendFactory
{
    public static readonly FileSystemBackend Instance = new();

    public bool IsAvailable => false;

    public IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger) =>
        throw new NotSupportedException("The FileSystem backend is not built yet.");
}

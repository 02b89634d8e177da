using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.FileSystem;

/// <summary>Opens FileSystem stores; always available (it needs nothing beyond the file system).</summary>
internal sealed class FileSystemBackend : IBackendFactory
{
    public static readonly FileSystemBackend Instance = new();

    public bool IsAvailable => true;

    public KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings) =>
        FileSystemStore.Open(directory, durability, options, logger, feedResumedAfter: settings.ChangeFeedResumedAfter);
}

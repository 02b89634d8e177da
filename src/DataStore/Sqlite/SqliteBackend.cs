using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.Sqlite;

/// <summary>Opens SQLite stores; always available (the package ships its native library).</summary>
internal sealed class SqliteBackend : IBackendFactory
{
    public static readonly SqliteBackend Instance = new();

    public bool IsAvailable => true;

    public KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings) =>
        SqliteStore.Open(directory, durability, options, logger, settings);
}

using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.LiteDb;

/// <summary>Opens LiteDB stores; always available (LiteDB is managed code).</summary>
internal sealed class LiteDbBackend : IBackendFactory, DataStore.Sharing.IBackendSharing
{
    public static readonly LiteDbBackend Instance = new();

    /// <summary>The engine admits one process at a time, so the library shares its stores through an owner process (ADR 0015).</summary>
    public bool NeedsOwnerProcess => true;

    /// <summary>LiteDB's compaction rewrites every document under the writer lock (ADR 0009): refused while another process uses the store.</summary>
    public bool CompactBlocksWriters => true;

    public bool IsAvailable => true;

    public KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings) =>
        LiteDbStore.Open(directory, durability, options, logger, checksums: settings.Checksums);
}

using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.Packed;

/// <summary>Opens Packed stores; always available (no native library).</summary>
internal sealed class PackedBackend : IBackendFactory
{
    public static readonly PackedBackend Instance = new();

    public bool IsAvailable => true;

    /// <summary>Opens the store's packed file; a store being created here gets an empty one (a store is filled by building it).</summary>
    public KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings)
    {
        var file = System.IO.Path.Combine(directory, PackedFormat.FileName);
        if (!System.IO.File.Exists(file))
        {
            PackedErrors.Guard(directory, () => PackedFileWrite.Replace(file, writer => { }));
        }

        return PackedFileStore.Open(directory);
    }
}

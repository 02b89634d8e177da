using DataStore.Backends;
using Microsoft.Extensions.Logging;
using RocksDbSharp;

namespace DataStore.RocksDb;

/// <summary>Opens RocksDB stores; found by configuration through <c>BackendCatalog</c>; available once RocksDB's native library loads.</summary>
internal sealed class RocksDbBackend : IBackendFactory, DataStore.Sharing.IBackendSharing
{
    private static readonly Lazy<bool> Loaded = new(LoadNative);

    /// <summary>The engine admits one process at a time, so the library shares its stores through an owner process (ADR 0015).</summary>
    public bool NeedsOwnerProcess => true;

    public bool IsAvailable => Loaded.Value;

    public IKeyValueStore Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, bool checksums) =>
        RocksDbStore.Open(directory, durability, options, logger);

    private static bool LoadNative()
    {
        try
        {
            return Native.Instance is not null;
        }
        catch (Exception e) when (e is DllNotFoundException or BadImageFormatException or TypeInitializationException or EntryPointNotFoundException or NativeImport.NativeLoadException)
        {
            return false;
        }
    }
}

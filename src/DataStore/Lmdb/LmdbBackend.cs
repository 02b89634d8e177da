using DataStore.Backends;
using Microsoft.Extensions.Logging;

namespace DataStore.Lmdb;

/// <summary>Opens LMDB stores; available when our LMDB 1.0 native library loads (<see cref="LmdbLibrary"/>).</summary>
internal sealed class LmdbBackend : IBackendFactory
{
    public static readonly LmdbBackend Instance = new();

    private static readonly Lazy<bool> NativeLoads = new(() =>
    {
        LmdbLibrary.InstallResolver();
        try
        {
            _ = LmdbNative.VersionString();
            return true;
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException or BadImageFormatException)
        {
            return false;
        }
    });

    /// <summary>The map size a new store starts with; existing stores open at the size their file records. Grows by itself.</summary>
    internal static long InitialMapSize { get; set; } = 64L << 20;

    public bool IsAvailable => NativeLoads.Value;

    public KeyValueStoreBase Open(string directory, Durability durability, DataStoreOptions options, ILogger logger, ManifestSettings settings) =>
        LmdbStore.Open(directory, durability, options, logger, InitialMapSize, settings.Checksums);
}

namespace DataStore.Backends;

/// <summary>The one switch from <see cref="StoreBackend"/> to the factory that opens its stores.</summary>
internal static class BackendCatalog
{
    /// <summary>The RocksDB backend is DataStore's code; its native library comes with the package DataStore.RocksDb (ADR 0010).</summary>
    private static readonly DataStore.RocksDb.RocksDbBackend RocksDb = new();

    /// <summary>The factory of <paramref name="backend"/>, or null when this build does not include it.</summary>
    public static IBackendFactory? Find(StoreBackend backend)
    {
        IBackendFactory? factory = backend switch
        {
            StoreBackend.Sqlite => Sqlite.SqliteBackend.Instance,
            StoreBackend.Lmdb => Lmdb.LmdbBackend.Instance,
            StoreBackend.FileSystem => FileSystem.FileSystemBackend.Instance,
            StoreBackend.LiteDb => LiteDb.LiteDbBackend.Instance,
            StoreBackend.Packed => Packed.PackedBackend.Instance,
            StoreBackend.RocksDb => RocksDb,
            _ => null,
        };
        return factory is { IsAvailable: true } ? factory : null;
    }

    /// <summary>Why <paramref name="backend"/> cannot be opened by this build, for the exception message.</summary>
    public static string WhyUnavailable(StoreBackend backend) => backend switch
    {
        StoreBackend.RocksDb => RocksDb.WhyUnavailable ?? "RocksDB's native library did not load",
        _ => "this version of DataStore does not include that backend yet",
    };
}

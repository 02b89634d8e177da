namespace DataStore.Backends;

/// <summary>The one switch from <see cref="StoreBackend"/> to the factory that opens its stores.</summary>
internal static class BackendCatalog
{
    /// <summary>The assembly-qualified factory of the RocksDB backend, which ships as its own package (ADR 0010).</summary>
    public const string RocksDbFactoryType = "DataStore.RocksDb.RocksDbBackend, DataStore.RocksDb";

    // Type.GetType with the constant inline lets the trimmer and native AOT see which type (and constructor) to keep.
    private static readonly Lazy<IBackendFactory?> RocksDb = new(() => PackagedFactory(Type.GetType(RocksDbFactoryType, throwOnError: false)));

    /// <summary>The factory of <paramref name="backend"/>, or null when this build does not include it.</summary>
    public static IBackendFactory? Find(StoreBackend backend)
    {
        var factory = backend switch
        {
            StoreBackend.Sqlite => Sqlite.SqliteBackend.Instance,
            StoreBackend.Lmdb => Lmdb.LmdbBackend.Instance,
            StoreBackend.FileSystem => FileSystem.FileSystemBackend.Instance,
            StoreBackend.LiteDb => LiteDb.LiteDbBackend.Instance,
            StoreBackend.Packed => Packed.PackedBackend.Instance,
            StoreBackend.RocksDb => RocksDb.Value,
            _ => null,
        };
        return factory is { IsAvailable: true } ? factory : null;
    }

    /// <summary>Why <paramref name="backend"/> cannot be opened by this build, for the exception message.</summary>
    public static string WhyUnavailable(StoreBackend backend) => backend switch
    {
        StoreBackend.RocksDb when RocksDb.Value is null => "the RocksDB backend ships as the separate package DataStore.RocksDb; add a reference to it",
        StoreBackend.RocksDb => RocksDb.Value.WhyUnavailable ?? "DataStore.RocksDb is referenced, but RocksDB's native library did not load",
        _ => "this version of DataStore does not include that backend yet",
    };

    /// <summary>Loads a backend that ships in its own package, if the application references that package.</summary>
    private static IBackendFactory? PackagedFactory(
        [System.Diagnostics.CodeAnalysis.DynamicallyAccessedMembers(System.Diagnostics.CodeAnalysis.DynamicallyAccessedMemberTypes.NonPublicConstructors | System.Diagnostics.CodeAnalysis.DynamicallyAccessedMemberTypes.PublicConstructors)] Type? type)
    {
        return type is null ? null : Activator.CreateInstance(type, nonPublic: true) as IBackendFactory;
    }
}

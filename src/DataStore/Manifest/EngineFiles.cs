namespace DataStore.Manifest;

/// <summary>
/// What each engine leaves in a store directory: the files that identify its store (found without a manifest, they
/// mean the manifest was lost, not that the directory is free) and the data an existing store cannot lack.
/// </summary>
internal static class EngineFiles
{
    private static readonly (StoreBackend Backend, string[] Patterns)[] Signatures =
    [
        (StoreBackend.Sqlite, ["store.sqlite", "store.sqlite-wal"]),
        (StoreBackend.Lmdb, ["store.lmdb", "lmdb-format"]),
        (StoreBackend.LiteDb, ["store.litedb", "store-log.litedb"]),
        (StoreBackend.RocksDb, ["CURRENT", "MANIFEST-*", "IDENTITY", "*.sst"]),
        (StoreBackend.FileSystem, ["data", "journal"]),
        (StoreBackend.Packed, ["store.packed"]),
    ];

    /// <summary>Each backend whose files lie in <paramref name="directory"/>, with the names found.</summary>
    public static IReadOnlyList<(StoreBackend Backend, string[] Found)> Recognize(string directory)
    {
        var found = new List<(StoreBackend, string[])>();
        if (!Directory.Exists(directory))
        {
            return found;
        }

        foreach (var (backend, patterns) in Signatures)
        {
            var names = patterns
                .SelectMany(p => Directory.EnumerateFileSystemEntries(directory, p, SearchOption.TopDirectoryOnly))
                .Select(System.IO.Path.GetFileName)
                .OfType<string>()
                .Distinct(StringComparer.Ordinal)
                .Order(StringComparer.Ordinal)
                .ToArray();
            if (names.Length > 0)
            {
                found.Add((backend, names));
            }
        }

        return found;
    }

    /// <summary>Says which data file of an existing <paramref name="backend"/> store is missing or empty, or null when none is.</summary>
    public static string? MissingData(string directory, StoreBackend backend) => backend switch
    {
        StoreBackend.Sqlite => MissingOrEmpty(directory, "store.sqlite"),
        StoreBackend.Lmdb => MissingOrEmpty(directory, "store.lmdb"),
        StoreBackend.LiteDb => MissingOrEmpty(directory, "store.litedb"),
        StoreBackend.Packed => MissingOrEmpty(directory, "store.packed"),
        StoreBackend.RocksDb => MissingRocksDbManifest(directory),
        StoreBackend.FileSystem => Directory.Exists(System.IO.Path.Combine(directory, "data"))
            ? FileSystem.TreeRoot.Emptied(directory)
            : $"its key directory '{System.IO.Path.Combine(directory, "data")}' is missing",
        _ => null,
    };

    /// <summary>The data files of a <paramref name="backend"/> store, as names inside its directory (what a new store must make durable).</summary>
    public static IEnumerable<string> DataFiles(string directory, StoreBackend backend) => backend switch
    {
        StoreBackend.Sqlite => ["store.sqlite"],
        StoreBackend.Lmdb => ["store.lmdb"],
        StoreBackend.LiteDb => ["store.litedb"],
        StoreBackend.Packed => ["store.packed"],
        StoreBackend.RocksDb => RocksDbManifestName(directory) is { } manifest ? ["CURRENT", manifest] : ["CURRENT"],
        _ => [],
    };

    private static string? MissingOrEmpty(string directory, string name)
    {
        var file = new FileInfo(System.IO.Path.Combine(directory, name));
        if (!file.Exists)
        {
            return $"its data file '{file.FullName}' is missing";
        }

        return file.Length == 0 ? $"its data file '{file.FullName}' is empty (0 bytes)" : null;
    }

    private static string? MissingRocksDbManifest(string directory)
    {
        if (MissingOrEmpty(directory, "CURRENT") is { } current)
        {
            return current.Replace("data file", "RocksDB file", StringComparison.Ordinal);
        }

        var manifest = RocksDbManifestName(directory);
        return manifest is null
            ? $"its RocksDB file '{System.IO.Path.Combine(directory, "CURRENT")}' does not name a MANIFEST file"
            : MissingOrEmpty(directory, manifest)?.Replace("data file", "RocksDB MANIFEST", StringComparison.Ordinal);
    }

    /// <summary>The MANIFEST file RocksDB's <c>CURRENT</c> names, or null when <c>CURRENT</c> does not name one.</summary>
    private static string? RocksDbManifestName(string directory)
    {
        try
        {
            var name = File.ReadAllText(System.IO.Path.Combine(directory, "CURRENT")).Trim();
            // MANIFEST- and digits only: a damaged CURRENT can hold any bytes (a NUL made the path an ArgumentException).
            return name.Length > 9 && name.StartsWith("MANIFEST-", StringComparison.Ordinal) && name.AsSpan(9).IndexOfAnyExceptInRange('0', '9') < 0 ? name : null;
        }
        catch (FileNotFoundException)
        {
            return null;
        }
    }
}

using DataStore.FileSystem;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.FileSystem;

/// <summary>Opens FileSystem stores with a lowered per-directory limit, so splitting shows with few keys.</summary>
internal static class FileSystemTestStore
{
    public static IKeyValueStore Open(string path, int maxEntries = FileSystemStore.DefaultMaxEntries, Durability durability = Durability.Relaxed)
    {
        // The public open writes the manifest; the internal one takes the lowered limit.
        KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.FileSystem }).Dispose();
        return FileSystemStore.Open(path, durability, new DataStoreOptions { Path = path, Backend = StoreBackend.FileSystem }, NullLogger.Instance, maxEntries);
    }

    /// <summary>The key files in the store's data directory itself (not the marker <see cref="TreeRoot.MarkerName"/> it also holds).</summary>
    public static IEnumerable<string> RootKeyFiles(string path) => Directory.EnumerateFiles(Path.Combine(path, "data"), "k*");

    /// <summary>The most entries any leaf directory, and any split directory, under the store's data directory holds.</summary>
    public static (int Leaf, int Split) LargestDirectories(string path)
    {
        var all = Directory.EnumerateDirectories(Path.Combine(path, "data"), "*", SearchOption.AllDirectories).Append(Path.Combine(path, "data")).ToList();
        int Largest(bool split) => all.Where(d => File.Exists(Path.Combine(d, KeyNames.SplitMarker)) == split)
            .Select(d => Directory.EnumerateFileSystemEntries(d).Count()).DefaultIfEmpty(0).Max();
        return (Largest(false), Largest(true));
    }
}

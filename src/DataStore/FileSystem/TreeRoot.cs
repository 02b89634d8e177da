using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// Tells an emptied key directory from a store with no keys (ADR 0013): the empty file <see cref="MarkerName"/> is made
/// in <c>data</c> with the key tree, and <see cref="RecordName"/> in the store directory says it was. Emptying
/// <c>data</c> takes the first and leaves the second. A store made before the markers gets them at its first open
/// that holds the write lock, taking its key directory as it finds it.
/// </summary>
internal static class TreeRoot
{
    /// <summary>The marker inside the key directory <c>data</c>.</summary>
    public const string MarkerName = "root";

    /// <summary>The record in the store directory that <c>data</c> holds <see cref="MarkerName"/>.</summary>
    public const string RecordName = "data.root";

    /// <summary>Says how the key directory of the store in <paramref name="store"/> was emptied, or null when its marker is there or was never made.</summary>
    public static string? Emptied(string store)
    {
        var data = Path.Combine(store, "data");
        return File.Exists(Path.Combine(store, RecordName)) && !File.Exists(Path.Combine(data, MarkerName))
            ? $"its key directory '{data}' was emptied (its file '{MarkerName}' is gone, which '{RecordName}' says it held)"
            : null;
    }

    /// <summary>
    /// Makes the marker, then the record, each synced with its directory (a record never survives a power loss
    /// without its marker); nothing when the record is there, or when the store cannot be written (read-only media).
    /// Call holding the write lock.
    /// </summary>
    public static void Mark(string store)
    {
        var record = Path.Combine(store, RecordName);
        if (File.Exists(record))
        {
            return;
        }

        try
        {
            var data = Path.Combine(store, "data");
            File.WriteAllBytes(Path.Combine(data, MarkerName), []);
            DirectorySync.Sync(data);
            File.WriteAllBytes(record, []);
            DirectorySync.Sync(store);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException && !File.Exists(record))
        {
            // Left unmarked: the store opens as one made before the markers (an emptied key directory is not detected).
        }
    }
}

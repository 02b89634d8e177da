namespace DataStore.Manifest;

/// <summary>
/// Makes a just-created store's data files and their directory entries durable, once, before the creation lock is
/// released: after that, a store whose manifest survived a power loss also has its (possibly empty) data file, so a
/// missing or 0-byte data file is always damage, never a store too young to have been synced.
/// </summary>
internal static class NewStoreSync
{
    public static void Sync(string directory, StoreBackend backend)
    {
        foreach (var name in EngineFiles.DataFiles(directory, backend))
        {
            var path = System.IO.Path.Combine(directory, name);
            if (File.Exists(path))
            {
                // An fsync through a read-only descriptor of its own, as for a directory: a FileStream would take
                // .NET's advisory lock, which the engine may hold.
                Platform.DirectorySync.Sync(path);
            }
        }

        var data = System.IO.Path.Combine(directory, "data");
        if (backend == StoreBackend.FileSystem && Directory.Exists(data))
        {
            Platform.DirectorySync.Sync(data);
        }

        Platform.DirectorySync.Sync(directory);
    }
}

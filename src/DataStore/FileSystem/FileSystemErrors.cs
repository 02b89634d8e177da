namespace DataStore.FileSystem;

/// <summary>Turns file system exceptions into <see cref="DataStoreException"/>s naming the store, the backend and the cause.</summary>
internal static class FileSystemErrors
{
    private const int DiskFull = 28; // ENOSPC
    private const int WindowsDiskFull = unchecked((int)0x80070070);

    /// <summary>True for the exceptions <see cref="Wrap"/> translates.</summary>
    public static bool IsFileSystemError(Exception e) => e is IOException or UnauthorizedAccessException or InvalidDataException;

    public static DataStoreException Wrap(string directory, string operation, Exception e)
    {
        if (e is InvalidDataException)
        {
            return new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.FileSystem, $"{operation}: {e.Message}.", e);
        }

        if (e is UnauthorizedAccessException)
        {
            return new DataStoreException(StoreFailure.AccessDenied, directory, StoreBackend.FileSystem,
                $"{operation}: access denied ({e.Message}). Check the directory's permissions or open the store as its owner.", e);
        }

        var full = (e.HResult & 0xFFFF) == DiskFull || e.HResult == WindowsDiskFull;
        return new DataStoreException(full ? StoreFailure.DiskFull : StoreFailure.Io, directory, StoreBackend.FileSystem,
            full ? $"{operation}: the disk is full ({e.Message}). Free space and retry." : $"{operation}: file system error: {e.Message}", e);
    }
}

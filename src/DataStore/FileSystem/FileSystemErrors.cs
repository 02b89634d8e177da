namespace DataStore.FileSystem;

/// <summary>Turns file system exceptions into <see cref="DataStoreException"/>s naming the store, the backend and the cause.</summary>
internal static class FileSystemErrors
{
    /// <summary>True for the exceptions <see cref="Wrap"/> translates.</summary>
    public static bool IsFileSystemError(Exception e) => e is IOException or UnauthorizedAccessException or InvalidDataException || ResourceErrors.IsFileTooLarge(e);

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

        return ResourceErrors.From(e) is var (cause, words)
            ? new DataStoreException(cause, directory, StoreBackend.FileSystem, $"{operation}: {words} ({e.Message})", e)
            : new DataStoreException(StoreFailure.Io, directory, StoreBackend.FileSystem, $"{operation}: file system error: {e.Message}", e);
    }
}

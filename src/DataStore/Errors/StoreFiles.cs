namespace DataStore;

/// <summary>Turns the file system's exceptions into <see cref="DataStoreException"/>s that name the store.</summary>
internal static class StoreFiles
{
    public static T Guard<T>(string directory, StoreBackend backend, Func<T> action)
    {
        try
        {
            return action();
        }
        catch (UnauthorizedAccessException e)
        {
            throw new DataStoreException(StoreFailure.AccessDenied, directory, backend,
                $"access denied ({e.Message}). Check the directory's permissions or open the store as its owner.", e);
        }
        catch (IOException e) when (e is not PathTooLongException)
        {
            throw ResourceErrors.From(e) is var (cause, words)
                ? new DataStoreException(cause, directory, backend, $"{words} ({e.Message})", e)
                : new DataStoreException(StoreFailure.Io, directory, backend, $"file system error: {e.Message}", e);
        }
    }
}

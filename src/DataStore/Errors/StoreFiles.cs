namespace DataStore;

/// <summary>Turns the file system's exceptions into <see cref="DataStoreException"/>s that name the store.</summary>
internal static class StoreFiles
{
    private const int DiskFullHResult = 28; // ENOSPC on Unix
    private const int WindowsDiskFull = unchecked((int)0x80070070);

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
            var full = (e.HResult & 0xFFFF) == DiskFullHResult || e.HResult == WindowsDiskFull;
            throw new DataStoreException(full ? StoreFailure.DiskFull : StoreFailure.Io, directory, backend,
                full ? $"the disk is full ({e.Message}). Free space and retry." : $"file system error: {e.Message}", e);
        }
    }
}

namespace DataStore.Packed;

/// <summary>Turns file-system failures while opening or building a packed store into exceptions naming the store.</summary>
internal static class PackedErrors
{
    public static T Guard<T>(string directory, Func<T> action)
    {
        try
        {
            return action();
        }
        catch (UnauthorizedAccessException e)
        {
            throw new DataStoreException(StoreFailure.AccessDenied, directory, StoreBackend.Packed, $"access to the packed file was denied ({e.Message}).", e);
        }
        catch (IOException e) when (e is not FileNotFoundException)
        {
            var full = e.HResult == 28 || e.HResult == 0x70 || e.Message.Contains("space", StringComparison.OrdinalIgnoreCase);
            throw new DataStoreException(full ? StoreFailure.DiskFull : StoreFailure.Io, directory, StoreBackend.Packed, $"the packed file could not be read or written ({e.Message}).", e);
        }
        catch (FileNotFoundException e)
        {
            throw new StoreFormatException(StoreFailure.Corrupt, directory, StoreBackend.Packed, $"its packed file '{e.FileName}' is missing: the data was deleted or lost.", e);
        }
    }
}

using DataStore.Lmdb;

namespace DataStore.TestHost;

/// <summary>Holds the LMDB backend's cross-process writer lock, as a busy writer process would.</summary>
internal static class LmdbWriteLock
{
    public static int Hold(string storePath, int milliseconds) => Hold(storePath, () => Thread.Sleep(milliseconds));

    /// <summary>Takes the lock, prints <c>LOCKED</c>, runs <paramref name="whileHeld"/>, lets it go and prints <c>RELEASED</c>.</summary>
    public static int Hold(string storePath, Action whileHeld)
    {
        var errors = new LmdbErrors(storePath, TimeSpan.FromSeconds(30));
        using var writers = LmdbWriterLock.Open(storePath, errors);
        if (!writers.TryTake(errors.Timeout))
        {
            Console.WriteLine("FAILED to take the writer lock");
            return 1;
        }

        Console.WriteLine("LOCKED");
        whileHeld();
        writers.Release();
        Console.WriteLine("RELEASED");
        return 0;
    }
}

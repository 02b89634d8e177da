namespace DataStore.Lmdb;

/// <summary>Opens the writer lock that fits the platform (ADR 0006).</summary>
internal static class LmdbWriterLock
{
    /// <summary>The side file that holds the lock, in the store directory.</summary>
    public const string FileName = "lmdb-writer.lock";

    /// <summary>
    /// On Linux a robust process-shared mutex mapped from <paramref name="directory"/>'s lock file, which costs no
    /// system call when nobody waits; elsewhere an exclusive file lock (<c>flock</c>, <c>LockFileEx</c>) per write.
    /// </summary>
    public static ILmdbWriterLock Open(string directory, LmdbErrors errors)
    {
        var path = System.IO.Path.Combine(directory, FileName);
        return OperatingSystem.IsLinux() ? LmdbSharedMutex.Open(path, errors) : new ExclusiveFileLock(new LmdbFileLock(path));
    }

    /// <summary>The file lock taken exclusive, as the writer lock of platforms without robust shared mutexes.</summary>
    private sealed class ExclusiveFileLock(LmdbFileLock file) : ILmdbWriterLock
    {
        public bool TryTake(TimeSpan timeout) => file.TryTake(exclusive: true, timeout);

        public void Release() => file.Release();

        public void Dispose() => file.Dispose();
    }
}

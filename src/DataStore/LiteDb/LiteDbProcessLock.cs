using System.Globalization;

namespace DataStore.LiteDb;

/// <summary>
/// Keeps a LiteDb store to one process at a time: an exclusive lock on <c>litedb.lock</c> (flock on Linux and
/// macOS, a share-mode lock on Windows), held while the store is open and released by the OS if the process dies.
/// The holder writes its process id to <c>litedb.owner</c> so a refused process can say who holds the store.
/// </summary>
/// <remarks>LiteDB's own direct mode does not lock on Linux: a second process can open and write the same file.</remarks>
internal sealed class LiteDbProcessLock : IDisposable
{
    public const string LockFile = "litedb.lock";
    public const string OwnerFile = "litedb.owner";

    private readonly FileStream _lock;

    private LiteDbProcessLock(FileStream held) => _lock = held;

    /// <summary>Takes the lock, waiting up to <paramref name="timeout"/> for another process to close the store.</summary>
    /// <exception cref="StoreTimeoutException">Another process kept the store open for longer.</exception>
    public static LiteDbProcessLock Acquire(string directory, TimeSpan timeout)
    {
        var path = Path.Combine(directory, LockFile);
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            FileStream held;
            try
            {
                held = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None, bufferSize: 0);
            }
            catch (IOException e) when (IsSharingViolation(e, path))
            {
                if (DateTime.UtcNow >= deadline)
                {
                    throw new StoreTimeoutException(directory, StoreBackend.LiteDb, timeout,
                        $"the store is held by {Owner(directory)}, which kept it open for longer than the configured timeout ({timeout.TotalSeconds:0.###} s). " +
                        "The LiteDb backend opens a store in one process at a time " +
                        "(LiteDB's shared mode is not used, see ADR 0009): close the other process, or use a backend shared across processes (Sqlite).", e);
                }

                Thread.Sleep(25);
                continue;
            }

            try
            {
                File.WriteAllText(Path.Combine(directory, OwnerFile), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
            }
            catch
            {
                held.Dispose(); // or this process would hold the store it failed to open
                throw;
            }

            return new LiteDbProcessLock(held);
        }
    }

    public void Dispose() => _lock.Dispose();

    // A lock conflict, not a missing directory, a permission problem or no descriptor left (those surface as they are).
    private static bool IsSharingViolation(IOException e, string path) =>
        e is not (FileNotFoundException or DirectoryNotFoundException or PathTooLongException) && ResourceErrors.From(e) is null && File.Exists(path);

    private static string Owner(string directory)
    {
        try
        {
            var text = File.ReadAllText(Path.Combine(directory, OwnerFile)).Trim();
            return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var pid) ? $"process {pid}" : "another process";
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return "another process";
        }
    }
}

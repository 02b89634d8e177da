using System.Runtime.InteropServices;

namespace DataStore.TestHost;

/// <summary>Holds a FileSystem store's write lock (an exclusive <c>flock</c> on <c>data.lock</c>) from outside DataStore, as another writer would.</summary>
internal static partial class FileSystemWriteLock
{
    private const int ReadWrite = 2;
    private const int Create = 0x40;
    private const int Exclusive = 2;
    private const int Release = 8;

    public static int Hold(string storePath, int milliseconds) => Hold(storePath, () => Thread.Sleep(milliseconds));

    /// <summary>Takes the lock, prints <c>LOCKED</c>, runs <paramref name="whileHeld"/>, lets it go and prints <c>RELEASED</c>.</summary>
    public static int Hold(string storePath, Action whileHeld)
    {
        var fd = Open(Path.Combine(storePath, "data.lock"), ReadWrite | Create, 432);
        if (fd < 0 || Flock(fd, Exclusive) != 0)
        {
            Console.Error.WriteLine($"could not lock (errno {Marshal.GetLastPInvokeError()})");
            return 1;
        }

        Console.WriteLine("LOCKED");
        whileHeld();
        _ = Flock(fd, Release);
        Console.WriteLine("RELEASED");
        return 0;
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "flock", SetLastError = true)]
    private static partial int Flock(int fd, int operation);
}

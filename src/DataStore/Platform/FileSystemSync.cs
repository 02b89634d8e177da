using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// Flushes every dirty file of the file system that holds a directory: <c>syncfs</c> on Linux, <c>sync</c> on
/// macOS. Windows has no unprivileged equivalent, so there it does nothing and the system's lazy writer
/// (a few seconds) bounds what a power loss costs.
/// </summary>
internal static partial class FileSystemSync
{
    private const int ReadOnly = 0;

    /// <summary>Test hook: runs on this thread before each sync, so a test can see what the sync runs under (which locks are held).</summary>
    [ThreadStatic]
    internal static Action? BeforeSyncForTests;

    /// <summary>Flushes the file system of <paramref name="directory"/>; throws <see cref="IOException"/> when the system refuses.</summary>
    public static void Sync(string directory)
    {
        BeforeSyncForTests?.Invoke();
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        if (!OperatingSystem.IsLinux())
        {
            SyncAll();
            return;
        }

        var fd = Open(directory, ReadOnly);
        if (fd < 0)
        {
            throw Failed($"could not open '{directory}' to sync its file system ");
        }

        try
        {
            if (Syncfs(fd) != 0)
            {
                throw Failed($"could not sync the file system of '{directory}' ");
            }
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "syncfs", SetLastError = true)]
    private static partial int Syncfs(int fd);

    [LibraryImport("libc", EntryPoint = "sync")]
    private static partial void SyncAll();

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    // The error number travels as the HResult (as .NET's own file errors do on Unix), so the store can say what it means.
    private static IOException Failed(string what)
    {
        var errno = Marshal.GetLastPInvokeError();
        return new IOException($"{what}(errno {errno})", errno);
    }
}

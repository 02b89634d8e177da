using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// Makes a directory's entries durable: on Linux and macOS a file created or renamed into a directory survives a
/// power loss only once the directory itself is fsynced. Windows (NTFS) journals directory changes, so there it
/// does nothing.
/// </summary>
internal static partial class DirectorySync
{
    private const int ReadOnly = 0;

    /// <summary>Fsyncs <paramref name="directory"/>; throws <see cref="IOException"/> when the system refuses.</summary>
    public static void Sync(string directory)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        var fd = Open(directory, ReadOnly);
        if (fd < 0)
        {
            throw Failed($"could not open directory '{directory}' to sync it ");
        }

        try
        {
            if (Fsync(fd) != 0)
            {
                throw Failed($"could not sync directory '{directory}' ");
            }
        }
        finally
        {
            _ = Close(fd);
        }
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    // The error number travels as the HResult (as .NET's own file errors do on Unix), so the store can say what it means.
    private static IOException Failed(string what)
    {
        var errno = Marshal.GetLastPInvokeError();
        return new IOException($"{what}(errno {errno})", errno);
    }
}

using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace DataStore.Platform;

/// <summary>
/// Syncs a file's data, and of its metadata only what reading the data back needs (its size), as LMDB's own
/// <c>mdb_env_sync</c> does: <c>fdatasync</c> on Linux, where <c>fsync</c> also writes the inode for a changed
/// modification time (one more synchronous write, a journal commit on ext4 with a journal); elsewhere
/// <see cref="RandomAccess.FlushToDisk"/>.
/// </summary>
internal static partial class FileDataSync
{
    private const int Interrupted = 4; // EINTR

    /// <summary>Returns once <paramref name="file"/>'s written data and size are on stable storage; throws <see cref="IOException"/> when the system refuses.</summary>
    public static void Flush(SafeFileHandle file)
    {
        if (!OperatingSystem.IsLinux())
        {
            RandomAccess.FlushToDisk(file);
            return;
        }

        var added = false;
        file.DangerousAddRef(ref added);
        try
        {
            Flush((int)file.DangerousGetHandle());
        }
        finally
        {
            if (added)
            {
                file.DangerousRelease();
            }
        }
    }

    /// <summary>The same for a descriptor of the POSIX layer (<see cref="PosixFile"/>, <see cref="PosixWrites"/>); Linux only.</summary>
    public static void Flush(int fd)
    {
        int rc;
        while ((rc = DataSync(fd)) != 0 && Marshal.GetLastPInvokeError() == Interrupted)
        {
        }

        if (rc != 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            throw new IOException($"fdatasync failed: {Marshal.GetPInvokeErrorMessage(errno)}", errno);
        }
    }

    [LibraryImport("libc", EntryPoint = "fdatasync", SetLastError = true)]
    private static partial int DataSync(int fd);
}

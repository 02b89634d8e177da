using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// Syncs a file's data, and of its metadata only what reading the data back needs (its size), as LMDB's own
/// <c>mdb_env_sync</c> does: <c>fdatasync</c>, where <c>fsync</c> also writes the inode for a changed modification time
/// (one more synchronous write, a journal commit on ext4 with a journal). Linux only, on a descriptor of the POSIX layer
/// (<see cref="PosixFile"/>, <see cref="PosixWrites"/>).
/// </summary>
internal static partial class FileDataSync
{
    private const int Interrupted = 4; // EINTR

    /// <summary>Returns once <paramref name="fd"/>'s written data and size are on stable storage; throws <see cref="IOException"/> when the system refuses.</summary>
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

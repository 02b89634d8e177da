using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

/// <summary>
/// Reserves disk blocks for the whole LMDB map (<c>fallocate</c> on the data file), so that with
/// <c>MDB_WRITEMAP</c> no store into the map lands on a hole the file system cannot fill: a full disk then fails the
/// open or the growth with <c>ENOSPC</c> instead of killing the process with <c>SIGBUS</c>. Linux only.
/// </summary>
internal static partial class LmdbDiskReservation
{
    /// <summary>Reserves the first <paramref name="size"/> bytes of the environment's data file; returns 0 or an errno value.</summary>
    public static int Reserve(nint env, long size)
    {
        var rc = LmdbNative.EnvGetFd(env, out var fd);
        if (rc != 0)
        {
            return rc;
        }

        return Fallocate(fd, 0, 0, size) == 0 ? 0 : Marshal.GetLastPInvokeError();
    }

    // Mode 0: allocates the range, extending the file if needed, and never changes bytes already there. Not
    // posix_fallocate, whose fallback on a file system without fallocate writes into the file while other processes
    // may be writing through their maps; here such a file system is an error (EOPNOTSUPP) and the store writes
    // without the map instead.
    [LibraryImport("libc", EntryPoint = "fallocate", SetLastError = true)]
    private static partial int Fallocate(int fd, int mode, long offset, long length);
}

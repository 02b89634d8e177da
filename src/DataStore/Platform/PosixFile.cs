using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// The few POSIX calls the FileSystem backend's reads make with a NUL-terminated UTF-8 path, so a point read
/// allocates nothing and a missing file is a return code, not an exception. Linux and macOS only.
/// </summary>
internal static unsafe partial class PosixFile
{
    private const int NoSuchFile = 2;   // ENOENT
    private const int NotDirectory = 20; // ENOTDIR
    private const int Interrupted = 4;
    private const int AccessDenied = 13;
    private const int NotPermitted = 1; // EPERM: O_NOATIME on a file another user owns

    private static readonly int ReadOnlyCloseOnExec = OperatingSystem.IsLinux() ? 0x80000 : 0x1000000;

    /// <summary>
    /// Reads also ask for O_NOATIME on Linux: with <c>relatime</c> the first read of each freshly written file
    /// dirties its inode, and a whole-store read then loads the next fsync (a Relaxed put's) with every one of them.
    /// </summary>
    private static readonly int ReadOnlyNoAccessTime = OperatingSystem.IsLinux() ? ReadOnlyCloseOnExec | 0x40000 : ReadOnlyCloseOnExec;

    /// <summary>Opens the file for reading; -1 when it (or a directory on its path) does not exist.</summary>
    public static int OpenRead(ReadOnlySpan<byte> pathZ)
    {
        fixed (byte* path = pathZ)
        {
            while (true)
            {
                var fd = Open(path, ReadOnlyNoAccessTime);
                if (fd < 0 && Marshal.GetLastPInvokeError() == NotPermitted)
                {
                    fd = Open(path, ReadOnlyCloseOnExec);
                }

                if (fd >= 0)
                {
                    return fd;
                }

                var errno = Marshal.GetLastPInvokeError();
                if (errno is NoSuchFile or NotDirectory)
                {
                    return -1;
                }

                if (errno != Interrupted)
                {
                    throw Failure("open", errno, pathZ);
                }
            }
        }
    }

    /// <summary>Opens a directory for use with <see cref="OpenReadAt"/> and <see cref="ExistsAt"/>; -1 when it does not exist.</summary>
    public static int OpenDirectory(ReadOnlySpan<byte> pathZ) => OpenRead(pathZ);

    /// <summary>Opens <paramref name="nameZ"/> in the directory <paramref name="directory"/> for reading; -1 when it does not exist.</summary>
    public static int OpenReadAt(int directory, ReadOnlySpan<byte> nameZ)
    {
        fixed (byte* name = nameZ)
        {
            while (true)
            {
                var fd = OpenAt(directory, name, ReadOnlyNoAccessTime);
                if (fd < 0 && Marshal.GetLastPInvokeError() == NotPermitted)
                {
                    fd = OpenAt(directory, name, ReadOnlyCloseOnExec);
                }

                if (fd >= 0)
                {
                    return fd;
                }

                var errno = Marshal.GetLastPInvokeError();
                if (errno is NoSuchFile or NotDirectory)
                {
                    return -1;
                }

                if (errno != Interrupted)
                {
                    throw Failure("openat", errno, nameZ);
                }
            }
        }
    }

    /// <summary>True when <paramref name="nameZ"/> exists in the directory <paramref name="directory"/>.</summary>
    public static bool ExistsAt(int directory, ReadOnlySpan<byte> nameZ)
    {
        fixed (byte* name = nameZ)
        {
            if (AccessAt(directory, name, 0, 0) == 0)
            {
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno is NoSuchFile or NotDirectory ? false : throw Failure("faccessat", errno, nameZ);
        }
    }

    /// <summary>Reads from <paramref name="offset"/> until <paramref name="buffer"/> is full or the file ends; returns the bytes read.</summary>
    public static int ReadAt(int fd, Span<byte> buffer, long offset)
    {
        var total = 0;
        fixed (byte* start = buffer)
        {
            while (total < buffer.Length)
            {
                var read = Pread(fd, start + total, buffer.Length - total, offset + total);
                if (read == 0)
                {
                    break;
                }

                if (read < 0)
                {
                    var errno = Marshal.GetLastPInvokeError();
                    if (errno == Interrupted)
                    {
                        continue;
                    }

                    throw new IOException($"read failed (errno {errno})", errno);
                }

                total += (int)read;
            }
        }

        return total;
    }

    public static void CloseFile(int fd) => _ = Close(fd);

    /// <summary>True when the path names an existing file or directory.</summary>
    public static bool Exists(ReadOnlySpan<byte> pathZ)
    {
        fixed (byte* path = pathZ)
        {
            if (Access(path, 0) == 0)
            {
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno is NoSuchFile or NotDirectory ? false : throw Failure("access", errno, pathZ);
        }
    }

    /// <summary>Removes a file; false when it did not exist.</summary>
    public static bool Unlink(ReadOnlySpan<byte> pathZ)
    {
        fixed (byte* path = pathZ)
        {
            if (UnlinkFile(path) == 0)
            {
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno is NoSuchFile or NotDirectory ? false : throw Failure("unlink", errno, pathZ);
        }
    }

    private static Exception Failure(string call, int errno, ReadOnlySpan<byte> pathZ)
    {
        var path = System.Text.Encoding.UTF8.GetString(pathZ[..^1]);
        return errno == AccessDenied
            ? new UnauthorizedAccessException($"{call} '{path}': permission denied")
            : new IOException($"{call} '{path}' failed (errno {errno})", errno);
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true)]
    private static partial int Open(byte* path, int flags);

    [LibraryImport("libc", EntryPoint = "openat", SetLastError = true)]
    private static partial int OpenAt(int directory, byte* path, int flags);

    [LibraryImport("libc", EntryPoint = "faccessat", SetLastError = true)]
    private static partial int AccessAt(int directory, byte* path, int mode, int flags);

    [LibraryImport("libc", EntryPoint = "pread", SetLastError = true)]
    private static partial nint Pread(int fd, byte* buffer, nint count, long offset);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "access", SetLastError = true)]
    private static partial int Access(byte* path, int mode);

    [LibraryImport("libc", EntryPoint = "unlink", SetLastError = true)]
    private static partial int UnlinkFile(byte* path);
}

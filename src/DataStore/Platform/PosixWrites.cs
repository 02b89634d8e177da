using System.Runtime.InteropServices;

namespace DataStore.Platform;

/// <summary>
/// The few Linux calls the FileSystem backend's writes make relative to an open directory: a key file written with
/// <c>openat</c>/<c>pwrite</c>/<c>close</c> (.NET's own file APIs add an <c>fstat</c>, an <c>fstatfs</c>, a
/// <c>flock</c> pair and an <c>lseek</c> per file) and a file moved with one <c>renameat</c> (.NET's <c>File.Move</c>
/// adds two <c>lstat</c>s and resolves both whole paths). Linux only: <c>openat</c> with <c>O_CREAT</c> takes a
/// variadic mode argument, which the calling convention passes in a register on Linux but not on Apple's arm64.
/// Failures carry the error number as the <see cref="IOException"/>'s HResult (as .NET's do), so a full disk reads as one.
/// </summary>
internal static unsafe partial class PosixWrites
{
    /// <summary>
    /// True on Linux unless <c>DATASTORE_FILESYSTEM_PORTABLE_IO=1</c>, which sends these writes through .NET's file APIs
    /// as before (to measure the difference in one build, and to run that portable path here).
    /// </summary>
    public static readonly bool Enabled = OperatingSystem.IsLinux() && Environment.GetEnvironmentVariable("DATASTORE_FILESYSTEM_PORTABLE_IO") != "1";

    /// <summary><c>AT_FDCWD</c>: a path relative to the working directory (or absolute).</summary>
    public const int CurrentDirectory = -100;

    private const int NoSuchFile = 2; // ENOENT
    private const int Interrupted = 4; // EINTR
    private const int AccessDenied = 13; // EACCES
    private const int WriteCreateCloseOnExec = 0x1 | 0x40 | 0x80000; // O_WRONLY | O_CREAT | O_CLOEXEC
    private const int FileMode = 0x1A4; // 0644, less the process's umask, as .NET creates files
    private const int SeekEnd = 2;

    /// <summary>Opens (creating if absent) <paramref name="nameZ"/> in <paramref name="directory"/> for writing; -1 when the directory is gone.</summary>
    public static int OpenWriteAt(int directory, ReadOnlySpan<byte> nameZ)
    {
        fixed (byte* name = nameZ)
        {
            while (true)
            {
                var fd = OpenAt(directory, name, WriteCreateCloseOnExec, FileMode);
                if (fd >= 0)
                {
                    return fd;
                }

                var errno = Marshal.GetLastPInvokeError();
                if (errno == NoSuchFile)
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

    /// <summary>Writes all of <paramref name="data"/> at <paramref name="offset"/>.</summary>
    public static void WriteAt(int fd, ReadOnlySpan<byte> data, long offset)
    {
        fixed (byte* start = data)
        {
            var done = 0;
            while (done < data.Length)
            {
                var written = Pwrite(fd, start + done, data.Length - done, offset + done);
                if (written < 0)
                {
                    var errno = Marshal.GetLastPInvokeError();
                    if (errno == Interrupted)
                    {
                        continue;
                    }

                    throw new IOException($"write failed (errno {errno})", errno);
                }

                done += (int)written;
            }
        }
    }

    /// <summary>The file's length.</summary>
    public static long Length(int fd) => Check(Lseek(fd, 0, SeekEnd), "lseek");

    /// <summary>Cuts or extends the file to <paramref name="length"/> bytes.</summary>
    public static void Truncate(int fd, long length) => Check(Ftruncate(fd, length), "ftruncate");

    /// <summary>Flushes the file's data and metadata to disk.</summary>
    public static void Flush(int fd) => Check(Fsync(fd), "fsync");

    /// <summary>Renames <paramref name="fromZ"/> in <paramref name="fromDirectory"/> over <paramref name="toZ"/> in <paramref name="toDirectory"/>; false when the source or the target's directory does not exist.</summary>
    public static bool RenameAt(int fromDirectory, ReadOnlySpan<byte> fromZ, int toDirectory, ReadOnlySpan<byte> toZ)
    {
        fixed (byte* from = fromZ)
        fixed (byte* to = toZ)
        {
            if (Renameat(fromDirectory, from, toDirectory, to) == 0)
            {
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno == NoSuchFile ? false : throw Failure("renameat", errno, toZ);
        }
    }

    /// <summary>Removes <paramref name="nameZ"/> from <paramref name="directory"/>; false when it did not exist.</summary>
    public static bool UnlinkAt(int directory, ReadOnlySpan<byte> nameZ)
    {
        fixed (byte* name = nameZ)
        {
            if (Unlinkat(directory, name, 0) == 0)
            {
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            return errno == NoSuchFile ? false : throw Failure("unlinkat", errno, nameZ);
        }
    }

    private static long Check(long result, string call)
    {
        if (result < 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            throw new IOException($"{call} failed (errno {errno})", errno);
        }

        return result;
    }

    private static Exception Failure(string call, int errno, ReadOnlySpan<byte> nameZ)
    {
        var name = System.Text.Encoding.UTF8.GetString(nameZ[..^1]);
        return errno == AccessDenied
            ? new UnauthorizedAccessException($"{call} '{name}': permission denied")
            : new IOException($"{call} '{name}' failed (errno {errno})", errno);
    }

    [LibraryImport("libc", EntryPoint = "openat", SetLastError = true)]
    private static partial int OpenAt(int directory, byte* path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "pwrite", SetLastError = true)]
    private static partial nint Pwrite(int fd, byte* buffer, nint count, long offset);

    [LibraryImport("libc", EntryPoint = "lseek", SetLastError = true)]
    private static partial long Lseek(int fd, long offset, int whence);

    [LibraryImport("libc", EntryPoint = "ftruncate", SetLastError = true)]
    private static partial int Ftruncate(int fd, long length);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    private static partial int Fsync(int fd);

    [LibraryImport("libc", EntryPoint = "renameat", SetLastError = true)]
    private static partial int Renameat(int fromDirectory, byte* from, int toDirectory, byte* to);

    [LibraryImport("libc", EntryPoint = "unlinkat", SetLastError = true)]
    private static partial int Unlinkat(int directory, byte* path, int flags);
}

using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace DataStore.Platform;

/// <summary>
/// A shared or exclusive lock on a whole file that other processes respect: <c>flock</c> on Linux and macOS,
/// <c>LockFileEx</c> on Windows. The lock belongs to this open handle, so two handles in one process exclude each
/// other as two processes do; the operating system drops it when the process dies.
/// </summary>
internal sealed unsafe partial class FileLock : IDisposable
{
    private const int LockShared = 1;
    private const int LockExclusive = 2;
    private const int LockNonBlocking = 4;
    private const int LockRelease = 8;
    private const int WouldBlock = 11; // EWOULDBLOCK on Linux
    private const int WouldBlockMac = 35;
    private const int Interrupted = 4;
    private const int ReadWrite = 2;
    private const int LinuxCreate = 0x40;
    private const int LinuxCloseOnExec = 0x80000;
    private const int MacCreate = 0x200;
    private const int MacCloseOnExec = 0x1000000;
    private const int AccessDenied = 13;
    private const uint WindowsExclusive = 2;
    private const uint WindowsFailImmediately = 1;
    private const int WindowsLockViolation = 33;

    private readonly SafeFileHandle _handle;

    private FileLock(SafeFileHandle handle) => _handle = handle;

    /// <summary>Opens (creating if needed) the lock file at <paramref name="path"/> for reading and writing.</summary>
    /// <remarks>On Unix the file is opened with <c>open</c> directly: .NET's own FileShare emulation would take a <c>flock</c> of its own on the handle.</remarks>
    public static FileLock Open(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            return new(File.OpenHandle(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete));
        }

        var flags = ReadWrite | (OperatingSystem.IsLinux() ? LinuxCreate | LinuxCloseOnExec : MacCreate | MacCloseOnExec);
        var fd = OpenFile(path, flags, 432); // 0660
        if (fd < 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            throw errno == AccessDenied
                ? new UnauthorizedAccessException($"Access to the path '{path}' is denied.")
                : new IOException($"could not open lock file '{path}' (errno {errno})", errno);
        }

        return new(new SafeFileHandle(fd, ownsHandle: true));
    }

    /// <summary>Opens the lock file as <see cref="Open"/> does, or returns null when it cannot be opened, without throwing (no descriptor may be left to load an exception's code).</summary>
    public static FileLock? TryOpen(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            try
            {
                return Open(path);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                return null;
            }
        }

        var fd = OpenFile(path, ReadWrite | (OperatingSystem.IsLinux() ? LinuxCreate | LinuxCloseOnExec : MacCreate | MacCloseOnExec), 432);
        return fd < 0 ? null : new(new SafeFileHandle(fd, ownsHandle: true));
    }

    /// <summary>
    /// Opens the lock file at <paramref name="path"/> and takes the lock as <see cref="EnterOrClose"/> does; null (the file
    /// closed again) when another handle held a conflicting lock for <paramref name="timeout"/>.
    /// </summary>
    public static FileLock? OpenAndWait(string path, bool exclusive, TimeSpan timeout, TimeSpan poll)
    {
        var fileLock = Open(path);
        return fileLock.EnterOrClose(exclusive, timeout, poll) ? fileLock : null;
    }

    /// <summary>
    /// Takes the lock, trying every <paramref name="poll"/> for at most <paramref name="timeout"/> (flock cannot time out,
    /// and a process must not hang on a lock a crashed holder would release anyway); false when another handle held a
    /// conflicting lock that long. This handle is closed when it returns false or throws.
    /// </summary>
    public bool EnterOrClose(bool exclusive, TimeSpan timeout, TimeSpan poll)
    {
        var started = System.Diagnostics.Stopwatch.StartNew();
        try
        {
            while (!TryEnter(exclusive))
            {
                if (started.Elapsed >= timeout)
                {
                    Dispose();
                    return false;
                }

                Thread.Sleep(poll);
            }
        }
        catch
        {
            Dispose();
            throw;
        }

        return true;
    }

    /// <summary>Takes the lock without waiting; false when another handle holds a conflicting lock.</summary>
    public bool TryEnter(bool exclusive)
    {
        if (OperatingSystem.IsWindows())
        {
            var overlapped = default(NativeOverlapped);
            var flags = WindowsFailImmediately | (exclusive ? WindowsExclusive : 0);
            if (LockFileEx(_handle, flags, 0, 1, 0, &overlapped))
            {
                return true;
            }

            var error = Marshal.GetLastPInvokeError();
            return error == WindowsLockViolation ? false : throw new IOException($"LockFileEx failed (error {error})");
        }

        var fd = (int)_handle.DangerousGetHandle();
        while (true)
        {
            if (Flock(fd, (exclusive ? LockExclusive : LockShared) | LockNonBlocking) == 0)
            {
                return true;
            }

            var errno = Marshal.GetLastPInvokeError();
            if (errno is WouldBlock or WouldBlockMac)
            {
                return false;
            }

            if (errno != Interrupted)
            {
                throw new IOException($"flock failed (errno {errno})", errno);
            }
        }
    }

    /// <summary>Releases the lock this handle holds.</summary>
    public void Exit()
    {
        if (OperatingSystem.IsWindows())
        {
            var overlapped = default(NativeOverlapped);
            _ = UnlockFileEx(_handle, 0, 1, 0, &overlapped);
            return;
        }

        _ = Flock((int)_handle.DangerousGetHandle(), LockRelease);
    }

    public void Dispose() => _handle.Dispose();

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int OpenFile(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "flock", SetLastError = true)]
    private static partial int Flock(int fd, int operation);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool LockFileEx(SafeFileHandle file, uint flags, uint reserved, uint lengthLow, uint lengthHigh, NativeOverlapped* overlapped);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool UnlockFileEx(SafeFileHandle file, uint reserved, uint lengthLow, uint lengthHigh, NativeOverlapped* overlapped);
}

using System.Diagnostics;
using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

/// <summary>
/// An OS lock on a small side file, shared or exclusive, held by this process: <c>flock</c> on Linux and macOS,
/// <c>LockFileEx</c> (through <see cref="FileStream.Lock"/>) on Windows. Waits poll with a growing pause, so every
/// wait honours a timeout; the OS drops the lock when the process dies.
/// </summary>
/// <remarks>
/// On Unix the file is opened with <c>open(2)</c>, not <see cref="FileStream"/>: .NET's FileStream takes a shared
/// <c>flock</c> of its own on every file it opens, which would block every exclusive lock of another process.
/// </remarks>
internal sealed partial class LmdbFileLock : IDisposable
{
    private const int LockShared = 1;
    private const int LockExclusive = 2;
    private const int LockNonBlocking = 4;
    private const int Unlock = 8;
    private const int OpenReadWrite = 2;
    private const int OpenCreate = 0x40;
    private const int OpenCloseOnExec = 0x80000;
    private const int EAccess = 13;
    private const int EPerm = 1;
    private const int EReadOnlyFs = 30;

    private readonly FileStream? _windowsFile;
    private readonly int _fd = -1;
    private bool _windowsLocked;

    public LmdbFileLock(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            _windowsFile = new FileStream(path, FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.ReadWrite | FileShare.Delete, 1, FileOptions.None);
            return;
        }

        _fd = Open(path, OpenReadWrite | OpenCreate | (OperatingSystem.IsLinux() ? OpenCloseOnExec : 0), Convert.ToInt32("664", 8));
        if (_fd < 0)
        {
            var errno = Marshal.GetLastPInvokeError();
            throw errno is EAccess or EPerm or EReadOnlyFs
                ? new UnauthorizedAccessException($"cannot open '{path}' for writing (errno {errno})")
                : new IOException($"cannot open '{path}' (errno {errno})", errno);
        }
    }

    /// <summary>Takes the lock (exclusive or shared), waiting at most <paramref name="timeout"/>; false when it stayed taken.</summary>
    public bool TryTake(bool exclusive, TimeSpan timeout)
    {
        if (TryTakeNow(exclusive))
        {
            return true;
        }

        var clock = Stopwatch.StartNew();
        var pause = 0.05;
        while (clock.Elapsed < timeout)
        {
            if (pause < 1)
            {
                Thread.SpinWait(200);
                Thread.Yield();
            }
            else
            {
                Thread.Sleep((int)pause);
            }

            pause = Math.Min(pause * 2, 4);
            if (TryTakeNow(exclusive))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Releases the lock.</summary>
    public void Release()
    {
        if (OperatingSystem.IsWindows() && _windowsFile is not null)
        {
            if (_windowsLocked)
            {
                _windowsLocked = false;
                _windowsFile.Unlock(0, 1);
            }

            return;
        }

        _ = Flock(_fd, Unlock);
    }

    public void Dispose()
    {
        _windowsFile?.Dispose();
        if (_fd >= 0)
        {
            _ = Close(_fd);
        }
    }

    private bool TryTakeNow(bool exclusive)
    {
        if (OperatingSystem.IsWindows() && _windowsFile is not null)
        {
            // FileStream.Lock is exclusive only, so on Windows a shared lock is not taken: there, replacing the
            // data file under another process fails with a sharing violation instead (ADR 0006).
            if (!exclusive)
            {
                return true;
            }

            try
            {
                _windowsFile.Lock(0, 1);
                _windowsLocked = true;
                return true;
            }
            catch (IOException)
            {
                return false;
            }
        }

        return Flock(_fd, (exclusive ? LockExclusive : LockShared) | LockNonBlocking) == 0;
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "flock", SetLastError = true)]
    private static partial int Flock(int fd, int operation);
}

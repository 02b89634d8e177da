using System.Runtime.InteropServices;

namespace DataStore.Lmdb;

/// <summary>
/// A robust, process-shared pthread mutex in a small file every process maps, as LMDB keeps its own writer mutex:
/// taking and releasing it costs no system call when nobody waits, a waiter sleeps in the kernel until the holder
/// releases it or the timeout passes, and a holder that dies releases it (the next taker sees <c>EOWNERDEAD</c>).
/// Linux (glibc or musl) only.
/// </summary>
/// <remarks>
/// The file's first 8 bytes say the mutex at <see cref="MutexOffset"/> is initialised; the first process to map the
/// file initialises it while holding an exclusive <c>flock</c> on the file, so two openers never both do.
/// </remarks>
internal sealed unsafe partial class LmdbSharedMutex : ILmdbWriterLock
{
    private const int RegionSize = 4096;
    private const int MutexOffset = 64;
    private const ulong Magic = 0x314B434F4C4D4453; // "SDMLOCK1", little-endian
    private const int ReadWrite = 2;
    private const int CloseOnExec = 0x80000;
    private const int ProtReadWrite = 3;
    private const int MapShared = 1;
    private const int ProcessShared = 1;
    private const int Robust = 1;
    private const int ClockRealtime = 0;
    private const int EBusy = 16;
    private const int ETimedOut = 110;
    private const int EOwnerDead = 130;

    private readonly byte* _region;

    private LmdbSharedMutex(byte* region) => _region = region;

    private nint Mutex => (nint)(_region + MutexOffset);

    /// <summary>Maps the lock file at <paramref name="path"/>, creating and initialising the mutex if no process has.</summary>
    /// <exception cref="StoreTimeoutException">Another process held the file's initialisation lock longer than the timeout.</exception>
    /// <exception cref="IOException">The file could not be created or mapped.</exception>
    public static LmdbSharedMutex Open(string path, LmdbErrors errors)
    {
        using var initLock = new LmdbFileLock(path);
        if (!initLock.TryTake(exclusive: true, errors.Timeout))
        {
            throw errors.TimedOut();
        }

        try
        {
            var region = Map(path);
            if (Volatile.Read(ref *(ulong*)region) != Magic)
            {
                Initialise(region + MutexOffset, path);
                Volatile.Write(ref *(ulong*)region, Magic);
            }

            return new LmdbSharedMutex(region);
        }
        finally
        {
            initLock.Release();
        }
    }

    public bool TryTake(TimeSpan timeout)
    {
        var rc = TryLock(Mutex);
        if (rc == EBusy && timeout > TimeSpan.Zero)
        {
            rc = LockUntil(timeout);
        }

        switch (rc)
        {
            case 0:
                return true;
            case EOwnerDead:
                // The holder died mid-write; LMDB recovers its own transaction, so the lock is simply ours now.
                _ = Consistent(Mutex);
                return true;
            case EBusy or ETimedOut:
                return false;
            default:
                throw new LmdbException(rc);
        }
    }

    public void Release() => _ = Unlock(Mutex);

    public void Dispose() => _ = Unmap((nint)_region, RegionSize);

    private int LockUntil(TimeSpan timeout)
    {
        // pthread_mutex_timedlock takes a wall-clock deadline (CLOCK_REALTIME), the one clock glibc and musl both take.
        TimeSpec now;
        _ = ClockGetTime(ClockRealtime, &now);
        var wait = Math.Min(timeout.Ticks, TimeSpan.TicksPerDay) * 100L;
        var nanoseconds = now.Nanoseconds + (wait % 1_000_000_000L);
        var deadline = new TimeSpec
        {
            Seconds = now.Seconds + (wait / 1_000_000_000L) + (nanoseconds / 1_000_000_000L),
            Nanoseconds = nanoseconds % 1_000_000_000L,
        };
        return TimedLock(Mutex, &deadline);
    }

    private static byte* Map(string path)
    {
        var fd = Open(path, ReadWrite | CloseOnExec);
        if (fd < 0)
        {
            throw Failed("open", path);
        }

        try
        {
            if (new FileInfo(path).Length < RegionSize && Truncate(fd, RegionSize) != 0)
            {
                throw Failed("size", path);
            }

            var region = MapFile(0, RegionSize, ProtReadWrite, MapShared, fd, 0);
            if (region == -1)
            {
                throw Failed("map", path);
            }

            return (byte*)region;
        }
        finally
        {
            _ = Close(fd);
        }
    }

    // The error number rides as the HResult, so a resource limit (no file descriptors left) reads as one (ResourceErrors).
    private static IOException Failed(string verb, string path)
    {
        var errno = Marshal.GetLastPInvokeError();
        return new IOException($"cannot {verb} '{path}' (errno {errno})", errno);
    }

    private static void Initialise(byte* mutex, string path)
    {
        // pthread_mutexattr_t is 4 or 8 bytes and pthread_mutex_t 40 or 48 on the Linux ABIs; both get room to spare.
        var attributes = stackalloc byte[64];
        var rc = AttrInit(attributes);
        rc = rc != 0 ? rc : AttrSetShared(attributes, ProcessShared);
        rc = rc != 0 ? rc : AttrSetRobust(attributes, Robust);
        rc = rc != 0 ? rc : MutexInit((nint)mutex, attributes);
        _ = AttrDestroy(attributes);
        if (rc != 0)
        {
            throw new IOException($"cannot create the writer lock in '{path}' (pthread error {rc})", rc);
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct TimeSpec
    {
        public long Seconds;
        public long Nanoseconds;
    }

    [LibraryImport("libc", EntryPoint = "open", SetLastError = true, StringMarshalling = StringMarshalling.Utf8)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "ftruncate", SetLastError = true)]
    private static partial int Truncate(int fd, long length);

    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    private static partial nint MapFile(nint address, nuint length, int protection, int flags, int fd, long offset);

    [LibraryImport("libc", EntryPoint = "munmap")]
    private static partial int Unmap(nint address, nuint length);

    [LibraryImport("libc", EntryPoint = "clock_gettime")]
    private static partial int ClockGetTime(int clock, TimeSpec* time);

    [LibraryImport("libc", EntryPoint = "pthread_mutexattr_init")]
    private static partial int AttrInit(byte* attributes);

    [LibraryImport("libc", EntryPoint = "pthread_mutexattr_setpshared")]
    private static partial int AttrSetShared(byte* attributes, int shared);

    [LibraryImport("libc", EntryPoint = "pthread_mutexattr_setrobust")]
    private static partial int AttrSetRobust(byte* attributes, int robust);

    [LibraryImport("libc", EntryPoint = "pthread_mutexattr_destroy")]
    private static partial int AttrDestroy(byte* attributes);

    [LibraryImport("libc", EntryPoint = "pthread_mutex_init")]
    private static partial int MutexInit(nint mutex, byte* attributes);

    [LibraryImport("libc", EntryPoint = "pthread_mutex_trylock")]
    private static partial int TryLock(nint mutex);

    [LibraryImport("libc", EntryPoint = "pthread_mutex_timedlock")]
    private static partial int TimedLock(nint mutex, TimeSpec* deadline);

    [LibraryImport("libc", EntryPoint = "pthread_mutex_consistent")]
    private static partial int Consistent(nint mutex);

    [LibraryImport("libc", EntryPoint = "pthread_mutex_unlock")]
    private static partial int Unlock(nint mutex);
}

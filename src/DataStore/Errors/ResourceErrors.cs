namespace DataStore;

/// <summary>
/// The resource limits a write or an open can run into (a full disk, a file size limit, no file descriptors or memory
/// left, which is also why the runtime may not start a thread: <see cref="Platform.LibraryThreads"/>), each with the
/// cause it is reported as and words that say what happened and what to do. Every backend's error translation asks here,
/// so the same limit reads the same on every backend.
/// </summary>
internal static class ResourceErrors
{
    private const int OutOfMemory = 12; // ENOMEM
    private const int TooManyOpenFilesInSystem = 23; // ENFILE
    private const int TooManyOpenFiles = 24; // EMFILE
    private const int FileTooLarge = 27; // EFBIG
    private const int NoSpace = 28; // ENOSPC
    private const int DiskQuota = 122; // EDQUOT on Linux
    private const int WindowsDiskFull = unchecked((int)0x80070070);
    private const int WindowsHandleDiskFull = unchecked((int)0x80070027);
    private const int WindowsTooManyOpenFiles = unchecked((int)0x80070004);

    /// <summary>The cause and words for a Unix error number, or null when it is not a resource limit.</summary>
    public static (StoreFailure Cause, string Words)? FromErrno(int errno) => errno switch
    {
        NoSpace or DiskQuota => (StoreFailure.DiskFull, "the disk is full (or the user's disk quota is used up). Free space and retry."),
        FileTooLarge => (StoreFailure.DiskFull,
            "a file reached the file size limit (the process's RLIMIT_FSIZE, `ulimit -f`, or the largest file the file system holds). Raise the limit and retry."),
        TooManyOpenFiles or TooManyOpenFilesInSystem => (StoreFailure.Io,
            "too many open files: the process (or the system) has no file descriptors left. Close other stores or raise the limit (`ulimit -n`) and retry."),
        OutOfMemory => (StoreFailure.Io,
            "out of memory (the system's, or the process's memory or thread limit). Close other stores or free memory and retry."),
        _ => null,
    };

    /// <summary>
    /// True for what .NET throws when a file may not grow to the length asked (EFBIG from <c>ftruncate</c> in
    /// <c>FileStream.SetLength</c>, also inside LiteDB): an <see cref="ArgumentOutOfRangeException"/> for its "value", not an IOException.
    /// </summary>
    public static bool IsFileTooLarge(Exception e) => e is ArgumentOutOfRangeException { ParamName: "value" };

    /// <summary>The same for an exception from .NET's file APIs (which carry the error number as the HResult on Unix).</summary>
    public static (StoreFailure Cause, string Words)? From(Exception exception)
    {
        if (IsFileTooLarge(exception))
        {
            return FromErrno(FileTooLarge);
        }

        if (Platform.LibraryThreads.IsStartFailure(exception))
        {
            return FromErrno(Platform.LibraryThreads.StartFailed(exception).HResult);
        }

        if (exception is not IOException e)
        {
            return null;
        }

        if (e.InnerException is { } cause && From(cause) is { } wrapped)
        {
            return wrapped; // an engine's own wrapper (LiteDB's log writer failure) around the file error
        }

        if (OperatingSystem.IsWindows())
        {
            return e.HResult switch
            {
                WindowsDiskFull or WindowsHandleDiskFull => FromErrno(NoSpace),
                WindowsTooManyOpenFiles => FromErrno(TooManyOpenFiles),
                _ => e.InnerException is IOException inner ? From(inner) : null,
            };
        }

        return e.HResult is > 0 and < 0x10000 ? FromErrno(e.HResult) : null;
    }
}

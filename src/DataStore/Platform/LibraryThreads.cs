namespace DataStore.Platform;

/// <summary>
/// Starts the library's own threads. The runtime needs file descriptors (a pipe, on Unix) and memory to start a
/// thread; when it cannot, <see cref="Thread.Start()"/> throws <see cref="OutOfMemoryException"/>, which an app does
/// not expect from a store and which ends the process when nothing catches it. Here that failure becomes an
/// <see cref="IOException"/> carrying its error number (EMFILE when the process has no descriptor left, else ENOMEM),
/// which every backend's error translation reports through <see cref="ResourceErrors"/> as a fault naming the store.
/// </summary>
internal static class LibraryThreads
{
    private const int OutOfMemory = 12; // ENOMEM
    private const int TooManyOpenFiles = 24; // EMFILE

    /// <summary>Starts <paramref name="thread"/>; throws <see cref="IOException"/> when the runtime cannot start it.</summary>
    public static void Start(Thread thread)
    {
        try
        {
            thread.Start();
        }
        catch (OutOfMemoryException e)
        {
            throw StartFailed(e);
        }
    }

    /// <summary>True for a thread an engine started through a task scheduler (LiteDB's log writer) that the runtime could not start.</summary>
    public static bool IsStartFailure(Exception e) => e is TaskSchedulerException { InnerException: OutOfMemoryException };

    /// <summary>
    /// For a thread start failure, the <see cref="IOException"/> that says why, else null. Ask at once, before any
    /// descriptor is closed: it looks whether any are left.
    /// </summary>
    public static IOException? AsStartFailure(Exception e) => IsStartFailure(e) ? StartFailed(e) : null;

    /// <summary>The <see cref="IOException"/> that says why the runtime could not start a thread.</summary>
    public static IOException StartFailed(Exception e)
    {
        var cause = e is TaskSchedulerException { InnerException: { } inner } ? inner : e; // not asked about again (ResourceErrors)
        return NoDescriptorsLeft()
            ? new IOException("the runtime could not start a thread, which needs file descriptors", cause) { HResult = TooManyOpenFiles }
            : new IOException("the runtime could not start a thread", cause) { HResult = OutOfMemory };
    }

    // A thread's start needs two descriptors at once (its pipe); both probes are closed again at once.
    private static bool NoDescriptorsLeft()
    {
        if (OperatingSystem.IsWindows())
        {
            return false;
        }

        try
        {
            using var first = File.OpenHandle("/dev/null");
            using var second = File.OpenHandle("/dev/null");
            return false;
        }
        catch (IOException e) when (e.HResult is TooManyOpenFiles or 23)
        {
            return true;
        }
    }
}

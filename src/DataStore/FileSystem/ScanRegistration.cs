using DataStore.Platform;

namespace DataStore.FileSystem;

/// <summary>
/// A streaming scan's entry in <c>scans/</c>: a file the scan holds locked while it is open, so writers of every
/// process keep pre-images for it (<see cref="PreImages"/>). A process that dies drops its locks, and the next
/// writer removes its entries.
/// </summary>
internal sealed class ScanRegistration : IDisposable
{
    private const string Extension = ".scan";
    private static long s_next;
    private readonly string _path;
    private readonly FileLock _lock;

    private ScanRegistration(string path, FileLock held)
    {
        _path = path;
        _lock = held;
    }

    /// <summary>Registers a scan of the store in <paramref name="root"/>; call holding the shared lock, so no write is under way.</summary>
    public static ScanRegistration Register(string root)
    {
        var folder = Path.Combine(root, PreImages.Folder);
        Directory.CreateDirectory(folder);
        var path = Path.Combine(folder, $"{Environment.ProcessId}-{Interlocked.Increment(ref s_next)}{Extension}");
        var held = FileLock.Open(path);
        if (!held.TryEnter(exclusive: true))
        {
            held.Dispose();
            throw new IOException($"could not lock the new scan registration '{path}'");
        }

        return new ScanRegistration(path, held);
    }

    /// <summary>Counts the registrations in <paramref name="folder"/> whose scan is still open, removing the others.</summary>
    public static int CountLive(string folder)
    {
        var live = 0;
        foreach (var path in Directory.EnumerateFiles(folder, "*" + Extension))
        {
            using var probe = FileLock.Open(path);
            if (probe.TryEnter(exclusive: true))
            {
                File.Delete(path);
            }
            else
            {
                live++;
            }
        }

        return live;
    }

    public void Dispose()
    {
        try
        {
            File.Delete(_path);
        }
        catch (IOException)
        {
            // The next writer removes an entry whose lock is free.
        }
        catch (UnauthorizedAccessException)
        {
            // As above.
        }

        _lock.Dispose();
    }
}

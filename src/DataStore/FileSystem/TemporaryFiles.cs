using System.Diagnostics;

namespace DataStore.FileSystem;

/// <summary>
/// The store's <c>tmp/</c> folder. Files are named <c>pid-n.tmp</c>; a single Put writes and flushes its file there
/// before it takes the write lock, so a file whose process still runs may be in use, and only files of processes that
/// are gone are stale (removed by recovery and Compact, reported by verify).
/// </summary>
internal static class TemporaryFiles
{
    /// <summary>The stale files in <paramref name="folder"/>: those whose writing process no longer runs.</summary>
    public static IEnumerable<string> Stale(string folder)
    {
        var live = new Dictionary<int, bool>();
        foreach (var name in TreeWalker.Entries(folder, directories: false))
        {
            var dash = name.IndexOf('-', StringComparison.Ordinal);
            if (dash > 0 && int.TryParse(name.AsSpan(0, dash), out var pid))
            {
                if (!live.TryGetValue(pid, out var running))
                {
                    live[pid] = running = Runs(pid);
                }

                if (running)
                {
                    continue;
                }
            }

            yield return Path.Combine(folder, name);
        }
    }

    /// <summary>Removes <paramref name="path"/> if it is there (a Put that failed after writing its file).</summary>
    public static void Remove(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Removed once its process is gone (recovery or Compact).
        }
    }

    private static bool Runs(int pid)
    {
        if (pid == Environment.ProcessId)
        {
            return true;
        }

        if (OperatingSystem.IsLinux())
        {
            return Directory.Exists($"/proc/{pid}");
        }

        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (Exception e) when (e is ArgumentException or InvalidOperationException)
        {
            return false;
        }
    }
}

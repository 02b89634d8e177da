using System.Diagnostics;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// A disk that fills under a writable map: without the map reserved on disk, LMDB's store into a page the file system
/// cannot back kills the process with SIGBUS. A child process fills a Relaxed store on a 96 MiB tmpfs; it must end with
/// a disk-full <see cref="DataStoreException"/>, and every write it acknowledged must be there afterwards.
/// </summary>
public sealed class LmdbWriteMapDiskFullTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private bool _mounted;

    private string Mount => _directory.Sub("small-disk");

    private string StorePath => Path.Combine(Mount, "store");

    [Fact]
    public void A_full_disk_under_a_writable_map_is_a_disk_full_error_and_loses_nothing()
    {
        MountSmallDisk();
        var (code, output) = ChildProcess.Run(["fill", StorePath, "Lmdb", "Relaxed", "t", "10000", "16384"], TimeSpan.FromSeconds(120));

        Assert.True(code == 3, $"the child ended with exit code {code} (135 is SIGBUS):\n{output}");
        Assert.Contains("ERROR DiskFull", output);
        var acknowledged = output.Split('\n').Where(l => l.StartsWith("ACK ", StringComparison.Ordinal)).Select(l => int.Parse(l[4..])).DefaultIfEmpty(0).Max();
        Assert.True(acknowledged > 0, output);

        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath });
        Assert.Equal(acknowledged, store.EnumerateKeys("t/"u8).Count());
    }

    public void Dispose()
    {
        if (_mounted)
        {
            Run("umount", "-l", Mount);
        }

        _directory.Dispose();
    }

    private void MountSmallDisk()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "tmpfs and writable maps: Linux only (ADR 0006).");
        Directory.CreateDirectory(Mount);
        _mounted = Run("mount", "-t", "tmpfs", "-o", "size=96m", "tmpfs", Mount) == 0;
        Assert.SkipUnless(_mounted, "mounting a small tmpfs needs root (CAP_SYS_ADMIN); run the test as root to hold the disk-full promise.");
    }

    private static int Run(string program, params string[] args)
    {
        var start = new ProcessStartInfo(program, args) { RedirectStandardError = true, RedirectStandardOutput = true };
        try
        {
            using var process = Process.Start(start)!;
            process.WaitForExit();
            return process.ExitCode;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return -1;
        }
    }
}

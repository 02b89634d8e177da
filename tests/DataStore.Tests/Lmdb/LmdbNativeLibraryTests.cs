using System.Diagnostics;

namespace DataStore.Tests.Lmdb;

/// <summary>The backend runs on our own LMDB 1.0.1 build (ADR 0016), which loads on glibc 2.31 and newer, and never on a system LMDB.</summary>
public sealed class LmdbNativeLibraryTests : IDisposable
{
    private const string MaxGlibc = "2.31";
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData("linux-x64")]
    [InlineData("linux-arm64")]
    public void The_shipped_Linux_library_needs_at_most_glibc_2_31(string rid)
    {
        var library = Path.Combine(AppContext.BaseDirectory, "runtimes", rid, "native", "libdatastore-lmdb.so");
        Assert.True(File.Exists(library), $"{library} should be copied to the build output");
        var symbols = Run("objdump", "-T", library);
        var versions = System.Text.RegularExpressions.Regex.Matches(symbols, @"GLIBC_(\d+(?:\.\d+)+)").Select(m => Version.Parse(m.Groups[1].Value)).ToList();
        Assert.NotEmpty(versions);
        Assert.True(versions.Max() <= Version.Parse(MaxGlibc), $"{library} needs GLIBC_{versions.Max()}, more than {MaxGlibc}");
    }

    [Fact]
    public void The_backend_runs_on_our_LMDB_1_0_1_and_no_system_LMDB()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the library is our own build on Linux only");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Lmdb }))
        {
            store.Put("a"u8, "1"u8);
        }

        Assert.StartsWith("LMDB 1.0.1", DataStore.Lmdb.LmdbNative.VersionString());
        var maps = File.ReadAllText("/proc/self/maps");
        Assert.Contains("libdatastore-lmdb.so", maps);
        Assert.DoesNotContain("liblmdb", maps);
    }

    public void Dispose() => _directory.Dispose();

    private static string Run(string program, params string[] args)
    {
        var start = new ProcessStartInfo(program) { RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        Process process;
        try
        {
            process = Process.Start(start)!;
        }
        catch (System.ComponentModel.Win32Exception)
        {
            Assert.Skip($"{program} is not installed (binutils)");
            throw;
        }

        using (process)
        {
            var output = process.StandardOutput.ReadToEnd();
            process.WaitForExit();
            Assert.Equal(0, process.ExitCode);
            return output;
        }
    }
}

using System.Diagnostics;

namespace DataStore.Tests.PowerLoss;

/// <summary>Builds the power-loss shim (powerloss-shim.c, powerloss-log.c) with the machine's C compiler, once per test run.</summary>
public static class PowerLossShim
{
    private static readonly Lazy<(string? Library, string? Missing)> Built = new(Build);

    /// <summary>The built library, or null with the reason it cannot be built here (no Linux, no <c>cc</c>).</summary>
    public static (string? Library, string? Missing) Library => Built.Value;

    private static (string?, string?) Build()
    {
        if (!OperatingSystem.IsLinux())
        {
            return (null, "the power-loss shim is an LD_PRELOAD library for Linux (glibc); this is not Linux");
        }

        var compiler = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':')
            .Select(d => Path.Combine(d, "cc"))
            .FirstOrDefault(File.Exists);
        if (compiler is null)
        {
            return (null, "no C compiler ('cc' is not on PATH) to build the power-loss shim; .ci/run installs gcc where it is missing");
        }

        var sources = Path.Combine(AppContext.BaseDirectory, "PowerLoss");
        var directory = Path.Combine(Path.GetTempPath(), "datastore-tests", $"powerloss-shim-{Environment.ProcessId}");
        Directory.CreateDirectory(directory);
        AppDomain.CurrentDomain.ProcessExit += (_, _) => Directory.Delete(directory, recursive: true);
        var library = Path.Combine(directory, "libdatastore-powerloss.so");
        var start = new ProcessStartInfo(compiler) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var arg in new[] { "-shared", "-fPIC", "-O2", "-o", library, Path.Combine(sources, "powerloss-shim.c"), Path.Combine(sources, "powerloss-log.c"), "-ldl", "-lpthread" })
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var errors = process.StandardError.ReadToEnd() + process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return process.ExitCode == 0
            ? (library, null)
            : throw new InvalidOperationException($"{compiler} could not build the shim in {sources} (exit {process.ExitCode}): {errors}");
    }
}

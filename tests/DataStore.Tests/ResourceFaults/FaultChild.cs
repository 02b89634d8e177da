using System.Diagnostics;
using System.Globalization;

namespace DataStore.Tests.ResourceFaults;

/// <summary>Runs test host commands under a resource fault and reads how they ended.</summary>
internal static class FaultChild
{
    /// <summary>A wrapper that turns the runtime's double mapping of code off, ignores SIGXFSZ (so a write past the limit fails with EFBIG instead of killing) and limits every file to <paramref name="bytes"/>.</summary>
    public static string[] FileSizeLimit(long bytes) =>
        ["/bin/sh", "-c", $"{NoDoubleMapping} trap '' XFSZ; exec /usr/bin/prlimit --fsize={bytes} -- \"$@\"", "sh"];

    /// <summary>A wrapper that turns the runtime's double mapping of code off: with it on, the runtime fails fast ("Out of memory.") when it cannot get a descriptor for new code.</summary>
    public static string[] WithoutDoubleMapping { get; } = ["/usr/bin/env", "DOTNET_EnableWriteXorExecute=0"];

    // With W^X on, the runtime maps its code through a memory file that grows past a small file size limit: it could not start.
    private const string NoDoubleMapping = "export DOTNET_EnableWriteXorExecute=0;";

    /// <summary>The child's <c>FAULT</c> line, asserted to be a DataStoreException of <paramref name="cause"/> naming the store, its backend and <paramref name="words"/>.</summary>
    public static string AssertFault(int exitCode, string output, string storePath, StoreBackend backend, StoreFailure cause, params string[] words)
    {
        Assert.True(exitCode == 3, $"{backend}: the child should end with a DataStoreException (exit 3), not exit {exitCode}. Output:\n{Tail(output)}");
        var line = output.Split('\n').FirstOrDefault(l => l.StartsWith("FAULT ", StringComparison.Ordinal));
        Assert.True(line is not null, $"{backend}: no FAULT line. Output:\n{Tail(output)}");
        TestContext.Current.TestOutputHelper?.WriteLine($"{backend}: {line}");
        Assert.Equal(cause.ToString(), line.Split(' ')[1]);
        Assert.Contains(storePath, line);
        Assert.Contains(backend.ToString(), line);
        foreach (var word in words)
        {
            Assert.Contains(word, line, StringComparison.OrdinalIgnoreCase);
        }

        return line;
    }

    /// <summary>The last step the child printed as acknowledged, or -1.</summary>
    public static int LastAcknowledged(string output) =>
        output.Split('\n').Where(l => l.StartsWith("ACK ", StringComparison.Ordinal))
            .Select(l => int.Parse(l[4..], CultureInfo.InvariantCulture)).DefaultIfEmpty(-1).Max();

    /// <summary>In a new process without limits: every acknowledged step is there, the store verifies clean and takes a write.</summary>
    public static void AssertRecovered(string storePath, StoreBackend backend, int acknowledged, IReadOnlyList<string>? wrapper = null, string? host = null)
    {
        var (code, output) = ChildProcess.Run(["check-fill", storePath, backend.ToString(), "-", acknowledged.ToString(CultureInfo.InvariantCulture)], wrapper: wrapper, hostAssembly: host);
        TestContext.Current.TestOutputHelper?.WriteLine($"{backend}: after the fault, {Tail(output)}");
        Assert.True(code == 0 && output.Contains("HEALTHY", StringComparison.Ordinal) && output.Contains("WROTE", StringComparison.Ordinal),
            $"{backend}: once the fault is gone the store should hold every acknowledged write, verify clean and take a write (exit {code}). Output:\n{Tail(output)}");
    }

    /// <summary>Sends <paramref name="signal"/> (STOP, CONT) to a process.</summary>
    public static void Signal(int processId, string signal)
    {
        using var kill = Process.Start("/bin/kill", ["-" + signal, processId.ToString(CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
        Assert.Equal(0, kill.ExitCode);
    }

    /// <summary>Runs a command line as root helpers do (mount, chown); returns its exit code and what it printed.</summary>
    public static (int ExitCode, string Output) Tool(string file, params string[] args)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEnd() + process.StandardError.ReadToEnd();
        process.WaitForExit();
        return (process.ExitCode, output.Trim());
    }

    private static string Tail(string output) => output.Length <= 3000 ? output : "..." + output[^3000..];
}

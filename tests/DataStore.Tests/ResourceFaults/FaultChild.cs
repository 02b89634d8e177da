using System.Diagnostics;
using System.Globalization;
using DataStore.Sharing;

namespace DataStore.Tests.ResourceFaults;

/// <summary>Runs test host commands under a resource fault and reads how they ended.</summary>
internal static class FaultChild
{
    /// <summary>
    /// A wrapper that turns the runtime's double mapping of code off, ignores SIGXFSZ (so a write past the limit fails
    /// with EFBIG instead of killing) and limits every file to <paramref name="bytes"/>, a soft limit the child may lift.
    /// </summary>
    public static string[] FileSizeLimit(long bytes) =>
        ["/bin/sh", "-c", $"{NoDoubleMapping} trap '' XFSZ; exec /usr/bin/prlimit --fsize={bytes}:unlimited -- \"$@\"", "sh"];

    /// <summary>A wrapper that turns the runtime's double mapping of code off: with it on, the runtime fails fast ("Out of memory.") when it cannot get a descriptor for new code.</summary>
    public static string[] WithoutDoubleMapping { get; } = ["/usr/bin/env", "DOTNET_EnableWriteXorExecute=0"];

    // With W^X on, the runtime maps its code through a memory file that grows past a small file size limit: it could not start.
    private const string NoDoubleMapping = "export DOTNET_EnableWriteXorExecute=0;";
    private static readonly TimeSpan ChildTimeout = TimeSpan.FromSeconds(90);

    /// <summary>
    /// Runs <c>fill-then-check</c> in one child: puts growing values until a write fails, then, once <paramref name="faultGone"/>
    /// has run, a fresh open in the same child checks every acknowledged write, verifies the store and writes.
    /// </summary>
    public static string FillThenCheck(string storePath, StoreBackend backend, int steps, IReadOnlyList<string>? wrapper, Action faultGone)
    {
        using var child = ChildProcess.Start(["fill-then-check", storePath, backend.ToString(), "-", steps.ToString(CultureInfo.InvariantCulture)], wrapper, input: true);
        child.WaitForLine(line => line == "FAULTED", ChildTimeout);
        faultGone();
        child.SendLine("the fault is gone");
        var code = child.WaitForExit(ChildTimeout);
        TestContext.Current.TestOutputHelper?.WriteLine($"{backend}: after the fault, {Tail(child.Output)}");
        Assert.True(code == 0 && child.Output.Contains("HEALTHY", StringComparison.Ordinal) && child.Output.Contains("WROTE", StringComparison.Ordinal),
            $"{backend}: once the fault is gone the store should hold every acknowledged write, verify clean and take a write (exit {code}). Output:\n{Tail(child.Output)}");
        return child.Output;
    }

    /// <summary>The child's <c>FAULT</c> line, asserted to be a DataStoreException of <paramref name="cause"/> naming the store, its backend and <paramref name="words"/>.</summary>
    public static string AssertFault(string output, string storePath, StoreBackend backend, StoreFailure cause, params string[] words)
    {
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

    /// <summary>Sends <paramref name="signal"/> (STOP, CONT) to a process.</summary>
    public static void Signal(int processId, string signal)
    {
        using var kill = Process.Start("/bin/kill", ["-" + signal, processId.ToString(CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
        Assert.Equal(0, kill.ExitCode);
    }

    /// <summary>
    /// Stops a process with SIGSTOP and returns once every thread of it has stopped: a stop signal takes effect only when
    /// the process next runs, and on a loaded machine a process can go on serving (a broker's hello, say) for a while
    /// after <c>kill</c> returned.
    /// </summary>
    public static void Stop(int processId)
    {
        Signal(processId, "STOP");
        var deadline = DateTime.UtcNow + ChildTimeout;
        while (!AllThreadsStopped(processId))
        {
            Assert.True(DateTime.UtcNow < deadline, $"process {processId} did not stop within {ChildTimeout.TotalSeconds} s of SIGSTOP");
            Thread.Sleep(2);
        }
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

    // Every thread stopped, read from /proc/PID/task/TID/stat.
    private static bool AllThreadsStopped(int processId)
    {
        foreach (var thread in System.IO.Directory.GetDirectories($"/proc/{processId}/task"))
        {
            try
            {
                if (!OwnerProcess.StatSaysStopped(File.ReadAllText(Path.Combine(thread, "stat"))))
                {
                    return false;
                }
            }
            catch (IOException)
            {
                // A thread that ended between the listing and the read.
            }
        }

        return true;
    }
}

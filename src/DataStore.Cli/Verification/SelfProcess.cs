using System.Diagnostics;

namespace DataStore.Cli.Verification;

/// <summary>Starts this tool again as a child process, whether it runs as an apphost (<c>datastore</c>) or as <c>dotnet DataStore.Cli.dll</c>.</summary>
internal static class SelfProcess
{
    /// <summary>A start description for the tool with <paramref name="arguments"/>, all three standard streams redirected.</summary>
    public static ProcessStartInfo StartInfo(IEnumerable<string> arguments)
    {
        var host = Environment.ProcessPath ?? throw new InvalidOperationException("the tool cannot tell its own executable to start a child process.");
        var start = new ProcessStartInfo(host)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            StandardOutputEncoding = System.Text.Encoding.UTF8,
            StandardErrorEncoding = System.Text.Encoding.UTF8,
        };
        if (string.Equals(Path.GetFileNameWithoutExtension(host), "dotnet", StringComparison.OrdinalIgnoreCase))
        {
            // Run by the muxer (dotnet DataStore.Cli.dll): the child needs the entry assembly named again.
            // (AppContext.BaseDirectory, not Assembly.Location, which a native AOT build does not have.)
            start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, typeof(SelfProcess).Assembly.GetName().Name + ".dll"));
        }

        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        return start;
    }

    /// <summary>How a child that did not finish ended: "signal 11 (SIGSEGV)" or "exit code N".</summary>
    public static string DescribeExit(int exitCode)
    {
        if (!OperatingSystem.IsWindows() && exitCode > 128 && exitCode < 128 + 32)
        {
            var signal = exitCode - 128;
            var name = signal switch
            {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return $"signal {signal}{name}";
        }

        return OperatingSystem.IsWindows() && exitCode < 0 ? $"exit code 0x{exitCode:X8}" : $"exit code {exitCode}";
    }
}

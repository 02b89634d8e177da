using System.Diagnostics;

namespace DataStore.Tests.Cli;

/// <summary>Runs the built <c>datastore</c> tool (src/DataStore.Cli) as a real process.</summary>
public static class DatastoreTool
{
    /// <summary>The tool's entry assembly, built beside this test assembly in the same configuration.</summary>
    public static string Assembly { get; } = FindTool();

    /// <summary>
    /// Runs <c>datastore</c> with <paramref name="args"/> in <paramref name="workingDirectory"/>, feeding
    /// <paramref name="stdin"/>; the child sees no DATASTORE* variables except those in <paramref name="environment"/>.
    /// A run longer than <paramref name="limit"/> (60 s unless given) is killed and fails the test.
    /// </summary>
    public static ToolResult Run(
        string workingDirectory, IEnumerable<string> args, byte[]? stdin = null, IReadOnlyDictionary<string, string>? environment = null, TimeSpan? limit = null)
    {
        var wait = limit ?? TimeSpan.FromSeconds(60);
        using var process = Start(workingDirectory, args, environment);
        var output = new MemoryStream();
        var copyOutput = process.StandardOutput.BaseStream.CopyToAsync(output);
        var error = process.StandardError.ReadToEndAsync();
        process.StandardInput.BaseStream.Write(stdin ?? []);
        process.StandardInput.Close();
        if (!process.WaitForExit(wait))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"datastore {string.Join(' ', args)} did not exit within {wait.TotalSeconds:0} s");
        }

        copyOutput.Wait();
        return new ToolResult(process.ExitCode, output.ToArray(), error.Result);
    }

    /// <summary>Starts <c>datastore</c> with every standard stream redirected, for a test that talks to it while it runs.</summary>
    public static Process Start(string workingDirectory, IEnumerable<string> args, IReadOnlyDictionary<string, string>? environment = null)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = workingDirectory,
        };
        start.ArgumentList.Add(Assembly);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        foreach (var name in start.Environment.Keys.Where(k => k.StartsWith("DATASTORE", StringComparison.OrdinalIgnoreCase)).ToList())
        {
            start.Environment.Remove(name);
        }

        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        return Process.Start(start)!;
    }

    /// <summary>Runs the tool and asserts it succeeded.</summary>
    public static ToolResult RunOk(string workingDirectory, params string[] args)
    {
        var result = Run(workingDirectory, args);
        Assert.True(result.ExitCode == 0, $"datastore {string.Join(' ', args)} exited {result.ExitCode}: {result.Error}");
        return result;
    }

    private static string FindTool()
    {
        var separator = Path.DirectorySeparatorChar;
        var candidate = Path.GetFullPath(AppContext.BaseDirectory.Replace(
            $"{separator}tests{separator}DataStore.Tests{separator}",
            $"{separator}src{separator}DataStore.Cli{separator}", StringComparison.Ordinal));
        var tool = Path.Combine(candidate, "DataStore.Cli.dll");
        return File.Exists(tool) ? tool : throw new FileNotFoundException($"The datastore tool was not built at {tool}; build the solution.");
    }
}

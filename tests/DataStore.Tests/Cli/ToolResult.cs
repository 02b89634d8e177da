using System.Text;

namespace DataStore.Tests.Cli;

/// <summary>What one run of the tool returned.</summary>
public sealed record ToolResult(int ExitCode, byte[] Output, string Error)
{
    /// <summary>Stdout as UTF-8 text.</summary>
    public string Text => Encoding.UTF8.GetString(Output);

    /// <summary>Stdout's lines, without the final newline.</summary>
    public string[] Lines => Text.Length == 0 ? [] : Text.TrimEnd('\n').Split('\n');

    /// <summary>Asserts the run failed with <paramref name="exitCode"/> and one line on stderr containing <paramref name="fragment"/>.</summary>
    public void AssertFailed(int exitCode, string fragment)
    {
        Assert.True(ExitCode == exitCode, $"expected exit code {exitCode}, got {ExitCode}; stderr: {Error}");
        var message = Error.TrimEnd('\n', '\r');
        Assert.DoesNotContain('\n', message);
        Assert.StartsWith("datastore: ", message, StringComparison.Ordinal);
        Assert.Contains(fragment, message, StringComparison.Ordinal);
    }
}

using System.Text.RegularExpressions;

namespace DataStore.Tests.Cli;

/// <summary>Progress on a redirected stderr: plain lines, none with --quiet.</summary>
public sealed class CliProgressTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Fact]
    public void Redirected_progress_is_plain_lines_and_quiet_turns_it_off()
    {
        CliBackends.CreateStore(Store, StoreBackend.Sqlite, MaintenanceStores.Sample(20_000));

        var export = DatastoreTool.RunOk(_directory.Path, "export", "--store", Store, "a.dump");

        var lines = export.Error.TrimEnd('\n').Split('\n');
        Assert.Contains(lines, l => Regex.IsMatch(l, @"^exporting [\d,]+(/[\d,]+ pairs \(\d+%\)| pairs)( [\d,]+ pairs/s( ETA \S+)?)?$"));
        Assert.DoesNotContain('\u001b', export.Error); // no terminal escapes
        Assert.All(lines, l => Assert.Matches(@"^(counting|exporting) ", l));

        var quiet = DatastoreTool.RunOk(_directory.Path, "export", "--store", Store, "--quiet", "b.dump");
        Assert.Empty(quiet.Error);
        Assert.Contains("exported 20,004 pairs", quiet.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void On_a_terminal_progress_is_a_bar_and_a_dump_is_never_written_to_it()
    {
        Assert.SkipUnless(File.Exists("/usr/bin/script"), "needs script(1) from util-linux for a pseudo-terminal");
        CliBackends.CreateStore(Store, StoreBackend.Sqlite, MaintenanceStores.Sample(2000));

        var (code, screen) = OnTerminal($"export --store '{Store}' '{_directory.Sub("a.dump")}'");
        Assert.True(code == 0, screen);
        Assert.Contains("━", screen, StringComparison.Ordinal);
        Assert.Matches(@"exporting 2,004/2,004 pairs.*100%", screen);
        Assert.Contains("exported 2,004 pairs", screen, StringComparison.Ordinal);

        (code, screen) = OnTerminal($"export --store '{Store}'");
        Assert.Equal(2, code);
        Assert.Contains("datastore: refusing to write a binary dump to a terminal", screen, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>Runs the tool with its three standard streams on a pseudo-terminal; returns its exit code and the screen's bytes.</summary>
    private static (int ExitCode, string Screen) OnTerminal(string arguments)
    {
        var start = new System.Diagnostics.ProcessStartInfo("/usr/bin/script")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in new[] { "-qec", $"dotnet '{DatastoreTool.Assembly}' {arguments}", "/dev/null" })
        {
            start.ArgumentList.Add(arg);
        }

        using var process = System.Diagnostics.Process.Start(start)!;
        process.StandardInput.Close();
        var screen = process.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
        Assert.True(process.WaitForExit(TimeSpan.FromSeconds(60)), "the tool on a terminal did not exit");
        return (process.ExitCode, Regex.Replace(screen.Result, @"\x1b\[[0-9;?]*[a-zA-Z]", ""));
    }
}

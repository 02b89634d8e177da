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

    public void Dispose() => _directory.Dispose();
}

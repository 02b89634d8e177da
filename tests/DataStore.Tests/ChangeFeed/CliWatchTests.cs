using System.Diagnostics;
using DataStore.Tests.Cli;

namespace DataStore.Tests.ChangeFeed;

/// <summary><c>datastore watch</c> as a real process: it prints the commits this process makes, one line per change, until Ctrl+C.</summary>
public sealed class CliWatchTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Watch_prints_each_commit_of_another_process_one_line_per_change_until_ctrl_c()
    {
        var path = _directory.Sub("store");
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, ChangeFeed = true });
        store.Put("other/x"u8, [1]);
        using var tool = DatastoreTool.Start(_directory.Path, ["watch", "--store", path, "--prefix", "mods/", "--from", "1"]);

        store.Put("other/y"u8, [1]);
        store.Write(new WriteBatch().Put("mods/a"u8, [1]).Put("mods/b"u8, [2]));
        store.DeletePrefix("mods/"u8);

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(60));
        var lines = new List<string>();
        while (lines.Count < 3 && await tool.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            lines.Add(line);
        }

        Assert.Equal(["3\tput\tmods/a", "3\tput\tmods/b", "4\tdelete-range\tmods/\tmods0"], lines);
        using (var interrupt = Process.Start("kill", ["-INT", tool.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await interrupt.WaitForExitAsync(timeout.Token);
        }

        await tool.WaitForExitAsync(timeout.Token);
        Assert.True(tool.ExitCode == 0, await tool.StandardError.ReadToEndAsync(timeout.Token));
    }

    public void Dispose() => _directory.Dispose();
}

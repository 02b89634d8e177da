using System.Diagnostics;
using System.Text.Json;

namespace DataStore.Tests.Cli;

/// <summary><c>datastore watch --json</c> as a real process: one JSON object per line per change, for scripts.</summary>
public sealed class CliWatchJsonTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Watch_json_prints_one_object_per_change_with_its_sequence_kind_key_and_range_end()
    {
        var path = _directory.Sub("store");
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, ChangeFeed = true });
        store.Put("mods/\"q\""u8, [1]);
        using var tool = DatastoreTool.Start(_directory.Path, ["watch", "--store", path, "--prefix", "mods/", "--from", "0", "--json"]);

        store.Write(new WriteBatch().Put("mods/a"u8, [1]).Delete("mods/b"u8));
        store.DeletePrefix("mods/"u8);

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(TestContext.Current.CancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(60));
        var lines = new List<string>();
        while (lines.Count < 4 && await tool.StandardOutput.ReadLineAsync(timeout.Token) is { } line)
        {
            lines.Add(line);
        }

        Assert.Equal(
        [
            """{"sequence":1,"kind":"put","key":"mods/\"q\""}""",
            """{"sequence":2,"kind":"put","key":"mods/a"}""",
            """{"sequence":2,"kind":"delete","key":"mods/b"}""",
            """{"sequence":3,"kind":"delete-range","key":"mods/","end":"mods0"}""",
        ], lines);
        Assert.All(lines, line => JsonDocument.Parse(line).Dispose());
        using (var interrupt = Process.Start("kill", ["-INT", tool.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await interrupt.WaitForExitAsync(timeout.Token);
        }

        await tool.WaitForExitAsync(timeout.Token);
        Assert.True(tool.ExitCode == 0, await tool.StandardError.ReadToEndAsync(timeout.Token));
    }

    public void Dispose() => _directory.Dispose();
}

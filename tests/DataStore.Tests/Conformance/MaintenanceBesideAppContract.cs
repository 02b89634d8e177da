using System.Globalization;
using DataStore.Tests.Cli;

namespace DataStore.Tests.Conformance;

/// <summary>
/// Rule 8 with the tool beside the app (issue 14, item 6): while an app process puts a key every 10 ms with a 5 s
/// <see cref="DataStoreOptions.Timeout"/>, the tool's <c>compact</c>, <c>verify</c>, <c>export</c> and <c>backup</c> on
/// the same store succeed (or refuse, saying why, when their own timeout runs out) and not one of the app's writes
/// fails. CI uses 20,000 keys; <c>DATASTORE_MAINTENANCE_KEYS=200000</c> runs the size users reported.
/// </summary>
public abstract class MaintenanceBesideAppContract : StoreContract
{
    private const string Rule = "8: tool maintenance beside a writing app never fails the app's writes";
    private static readonly TimeSpan Wait = TimeSpan.FromSeconds(60);

    // The rule is about the app's writes, not the command's speed: a whole-store command on a loaded 2-core machine
    // (FileSystem's backup writes one file per key) may take minutes, which fails nothing here.
    private static readonly TimeSpan ToolLimit = TimeSpan.FromSeconds(240);

    private static int Keys { get; } = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_MAINTENANCE_KEYS"), CultureInfo.InvariantCulture, out var keys) ? keys : 20_000;

    [Theory]
    [InlineData("compact")]
    [InlineData("verify")]
    [InlineData("export")]
    [InlineData("backup")]
    public void A_tool_command_beside_a_writing_app_fails_none_of_the_apps_writes(string command)
    {
        RequireCapability(StoreCapabilities.Persistent | StoreCapabilities.SharedAcrossProcesses, Rule);
        Fill();
        string[] args = command switch
        {
            "export" => ["export", "--timeout", "2", "--store", StorePath, Directory.Sub("store.dump")],
            "backup" => ["backup", "--timeout", "2", "--store", StorePath, Directory.Sub("backup")],
            _ => [command, "--timeout", "2", "--store", StorePath],
        };

        using var app = ChildProcess.Start(["app-writes", StorePath, Backend.ToString(), "-", "10", "5"]);
        app.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal), Wait);
        var tool = DatastoreTool.Run(Directory.Path, args, limit: ToolLimit);
        var acknowledged = AcknowledgedBy(app);
        app.WaitForLine(l => l == $"ACK {acknowledged + 3}" || l.StartsWith("FAIL ", StringComparison.Ordinal), Wait);
        app.KillHard();

        var failures = app.Output.Split('\n').Where(l => l.StartsWith("FAIL ", StringComparison.Ordinal)).ToList();
        Assert.True(failures.Count == 0, $"{Backend}, {Keys} keys: {failures.Count} of the app's writes failed during 'datastore {command}': {string.Join(" | ", failures.Take(3))}");
        if (RefusedBesideApp(command))
        {
            Assert.True(tool.ExitCode != 0 && tool.Error.Contains("needs the store to itself: 1 other process(es) have it open", StringComparison.Ordinal),
                $"{Backend}: 'datastore {command}' beside the app should be refused at once, saying why; it exited {tool.ExitCode}: {tool.Error}");
            return;
        }

        // The tool may refuse (Lmdb's compact needs the store to itself), but only saying why, after its own 2 s timeout.
        Assert.True(tool.ExitCode == 0 || tool.Error.Contains("another process", StringComparison.Ordinal), $"datastore {command} exited {tool.ExitCode} beside the app: {tool.Error}");
    }

    /// <summary>True when the backend refuses <paramref name="command"/> at once while another process uses the store (LiteDb's compact).</summary>
    protected virtual bool RefusedBesideApp(string command) => false;

    private void Fill()
    {
        using var store = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < Keys; i++)
        {
            batch.Put(Bytes.Utf8($"mods/{i:D7}"), Bytes.Random(100, i));
            if (batch.Count == 1_000)
            {
                store.Write(batch);
                batch.Clear();
            }
        }

        store.Write(batch);
    }

    private static int AcknowledgedBy(ChildProcess app) =>
        int.Parse(app.LastLine("ACK ")!["ACK ".Length..], CultureInfo.InvariantCulture);
}

using System.Diagnostics;
using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Cli;

/// <summary>
/// Issue 20 item 5: the <c>datastore</c> tool fed fixed hostile and seeded random command lines and stdin garbage, as
/// real processes (the tool reads the console, starts itself for verify and handles signals, so it is not run in the
/// test process). Every run must end with a documented exit code (0-4; 130 only after a signal), say why on stderr when
/// it fails, never print a stack trace unless --verbose was given or crash (134, 139), and never create a store at a path
/// the command line did not name. CI runs the fixed list and <see cref="DefaultRuns"/> random runs;
/// <c>DATASTORE_CLI_FUZZ_RUNS=n</c> runs more, <c>DATASTORE_CLI_FUZZ_SEED=n</c> replays.
/// </summary>
public sealed class CliFuzzTests : IDisposable
{
    public const int DefaultRuns = 28;
    private static readonly int[] Documented = [0, 1, 2, 3, 4];
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Hostile_and_random_command_lines_end_with_a_documented_code_and_a_message()
    {
        var seed = Setting("DATASTORE_CLI_FUZZ_SEED") ?? Random.Shared.Next();
        var runs = Setting("DATASTORE_CLI_FUZZ_RUNS") ?? DefaultRuns;
        TestContext.Current.TestOutputHelper?.WriteLine($"{runs} random runs after the fixed ones, seed {seed} (DATASTORE_CLI_FUZZ_SEED={seed} replays it)");
        var dump = Arrange();
        var vectors = new CliFuzzVectors(new Random(seed), dump);
        var fixedOnes = CliFuzzVectors.Hostile(dump);
        for (var i = 0; i < fixedOnes.Count + runs; i++)
        {
            var vector = i < fixedOnes.Count ? fixedOnes[i] : vectors.Next();
            Check($"seed {seed}, run {i}: {vector}", vector);
        }
    }

    // A store with a few pairs, a good dump of it, a file that is neither, and configuration files (one naming a path with a NUL).
    private byte[] Arrange()
    {
        CliBackends.CreateStore(_directory.Sub("store"), StoreBackend.Sqlite, ("a", "1"), ("b", "2"), ("mods/x", "3"));
        var dump = DatastoreTool.RunOk(_directory.Path, "export", "--store", "store", "-").Output;
        File.WriteAllBytes(_directory.Sub("good.dump"), dump);
        File.WriteAllBytes(_directory.Sub("garbage.bin"), Bytes.Random(5000, 7));
        File.WriteAllText(_directory.Sub("cfg-nul.json"), """{ "DataStore": { "Path": "a\u0000b", "Backend": "Sqlite" } }""");
        File.WriteAllText(_directory.Sub("cfg-bad.json"), """{ "DataStore": { "Path": 12, "Timeout": "soon" """);
        File.WriteAllText(_directory.Sub("cfg-feed.json"), """{ "DataStore": { "Path": "feed-store", "Backend": "Sqlite", "ChangeFeed": true } }""");
        return dump;
    }

    private void Check(string context, CliFuzzVector vector)
    {
        var stores = Stores();
        var (code, error, signalled) = Run(vector);
        var lines = error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(Documented.Contains(code) || (signalled && code == 130), $"{context}: exit code {code}; stderr: {error}");
        // `has` answers an absent key with "false" and exit code 1 (README), which is an answer, not an error.
        var answered = code == 0 || (code == 1 && vector.Args.FirstOrDefault() == "has");
        Assert.True(answered || lines.Any(l => l.StartsWith("datastore: ", StringComparison.Ordinal)), $"{context}: exit code {code} without a 'datastore: ' message; stderr: {error}");
        Assert.DoesNotContain("Unhandled exception", error, StringComparison.Ordinal);
        var verbose = vector.Args.Any(a => a is "--verbose" or "-v");
        Assert.True(verbose || !lines.Any(l => l.TrimStart().StartsWith("at ", StringComparison.Ordinal) && l.Contains('(', StringComparison.Ordinal)),
            $"{context}: a stack trace without --verbose; stderr: {error}");

        // The command line names a store path, a destination or a configuration file (whose Path counts as named).
        var named = vector.Args.Select(FullPath).Append(_directory.Sub("feed-store")).Append(_directory.Sub("a\0b")).ToHashSet();
        var created = Stores().Except(stores).Where(s => !named.Contains(s)).ToList();
        Assert.True(created.Count == 0, $"{context}: a store appeared where none was named: {string.Join(", ", created)}");
    }

    // Runs the tool; a run still going after 20 s (watch waits for commits) gets SIGINT and must then stop within 10 s.
    private (int Code, string Error, bool Signalled) Run(CliFuzzVector vector)
    {
        using var process = DatastoreTool.Start(_directory.Path, vector.Args);
        var output = process.StandardOutput.BaseStream.CopyToAsync(Stream.Null);
        var error = process.StandardError.ReadToEndAsync();
        try
        {
            process.StandardInput.BaseStream.Write(vector.Stdin);
            process.StandardInput.Close();
        }
        catch (IOException)
        {
            // the tool exited without reading stdin
        }

        var signalled = false;
        if (!process.WaitForExit(TimeSpan.FromSeconds(20)))
        {
            signalled = true;
            using (var kill = Process.Start("kill", ["-INT", process.Id.ToString(CultureInfo.InvariantCulture)]))
            {
                kill.WaitForExit();
            }

            if (!process.WaitForExit(TimeSpan.FromSeconds(10)))
            {
                process.Kill(entireProcessTree: true);
                Assert.Fail($"{vector} did not stop within 10 s of SIGINT");
            }
        }

        output.Wait();
        return (process.ExitCode, error.Result, signalled);
    }

    private string FullPath(string argument) =>
        string.IsNullOrWhiteSpace(argument) ? _directory.Path : Path.TrimEndingDirectorySeparator(Path.GetFullPath(argument, _directory.Path));

    // Every directory under the working directory that holds a store manifest.
    private HashSet<string> Stores() =>
        [.. Directory.EnumerateFiles(_directory.Path, "datastore.json", new EnumerationOptions { RecurseSubdirectories = true, AttributesToSkip = 0 })
            .Select(f => Path.GetDirectoryName(f)!)];

    private static int? Setting(string name) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : null;

    public void Dispose() => _directory.Dispose();
}

using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Damage;

/// <summary>
/// Rule 10, damaged files (issue 20 item 3): a store of <see cref="BasePairs"/> pairs written and closed, then
/// <see cref="TailPairs"/> more written by a process killed with kill -9 (so logs and journals hold data), is copied
/// once per case; one of its files is cut, zeroed or flipped (<see cref="DamageCase"/>), and a child process opens it
/// as the tool does, reads every key, scans and verifies. Each case ends recovered, in an earlier state (whole
/// batches dropped from the end of a log, as a power loss can leave), or as a DataStoreException naming the file;
/// wrong data, a crash, a hang or a foreign exception fails the test.
/// </summary>
/// <remarks>
/// CI runs <see cref="DefaultCases"/> cases per backend, taken in turn from each file (largest first) in a seeded
/// order. The full matrix (every file, six chosen cases and <c>DATASTORE_DAMAGE_RANDOM</c> random ones each):
/// <c>DATASTORE_DAMAGE_CASES=all dotnet test tests/DataStore.Tests -c Release --filter "FullyQualifiedName~DamageMatrix"</c>;
/// <c>DATASTORE_DAMAGE_SEED=n</c> replays a run, <c>DATASTORE_DAMAGE_REPORT=file</c> appends each backend's counts.
/// </remarks>
public abstract class DamageMatrixContract : StoreContract
{
    public const int DefaultCases = 5;
    public const int BasePairs = 2_000;
    public const int TailPairs = 200;
    private static readonly TimeSpan ChildTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    public void Every_damaged_file_is_recovered_or_an_error_naming_it_never_wrong_data_a_crash_or_a_hang()
    {
        RequireCapability(StoreCapabilities.Persistent, "10: damage is an error naming the file");
        var seed = Setting("DATASTORE_DAMAGE_SEED") ?? Random.Shared.Next();
        var all = Environment.GetEnvironmentVariable("DATASTORE_DAMAGE_CASES") == "all";
        var cases = all ? int.MaxValue : Setting("DATASTORE_DAMAGE_CASES") ?? DefaultCases;
        var random = new Random(seed);
        var template = BuildTemplate();
        var chosen = DamageCases.Pick(template, random, all ? Setting("DATASTORE_DAMAGE_RANDOM") ?? 4 : 2, cases);
        TestContext.Current.TestOutputHelper?.WriteLine($"{Backend}: {chosen.Count} cases, seed {seed}");

        var results = new List<DamageResult>();
        for (var i = 0; i < chosen.Count; i++)
        {
            var copy = Directory.Sub($"case-{i}");
            DamageCases.Copy(template, copy);
            chosen[i].Apply(copy);
            results.Add(Probe(chosen[i], copy));
            System.IO.Directory.Delete(copy, recursive: true);
        }

        var table = DamageTable.Row(Backend, results);
        TestContext.Current.TestOutputHelper?.WriteLine(table);
        foreach (var result in results)
        {
            TestContext.Current.TestOutputHelper?.WriteLine($"{result.Outcome}{(result.VerifyMissed ? " (verify said healthy)" : "")}: {result.Case}: {result.Detail}");
        }

        if (Environment.GetEnvironmentVariable("DATASTORE_DAMAGE_REPORT") is { Length: > 0 } report)
        {
            File.AppendAllText(report, $"{table} seed {seed}\n" + string.Concat(results.Select(r => $"  {r.Outcome}: {r.Case}: {r.Detail}\n")));
        }

        var failures = results.Where(r => r.Outcome > DamageOutcome.UnnamedError).ToList();
        var known = failures.Select(KnownOpenDefect).ToList();
        Assert.SkipWhen(failures.Count > 0 && known.All(reason => reason is not null),
            $"{Backend}, seed {seed}: every bad case is a known open defect, printed here:\n" +
            string.Join('\n', failures.Zip(known, (f, reason) => $"{f.Outcome}: {f.Case}: {f.Detail}\n  known: {reason}")));
        Assert.True(failures.Count == 0, $"{Backend}, seed {seed}: {failures.Count} of {results.Count} cases ended badly:\n" +
            string.Join('\n', failures.Select(f => $"{f.Outcome}: {f.Case}: {f.Detail}")));
    }

    /// <summary>
    /// The reason a bad case is a defect this backend is known not to meet yet (the test then skips, printing it and
    /// the case), or null: any other bad case fails the test.
    /// </summary>
    protected virtual string? KnownOpenDefect(DamageResult result) => null;

    // Writes the model in two child processes: one that closes the store, one killed after its last batch.
    private string BuildTemplate()
    {
        var template = Directory.Sub("template");
        var (code, output) = ChildProcess.Run(["damage-fill", template, Backend.ToString(), "Relaxed", "base", BasePairs.ToString(CultureInfo.InvariantCulture), "close"]);
        Assert.True(code == 0, $"filling the template failed: {output}");
        using var killed = ChildProcess.Start(["damage-fill", template, Backend.ToString(), "Relaxed", "tail", TailPairs.ToString(CultureInfo.InvariantCulture), "hang"]);
        killed.WaitForLine(l => l == "FILLED", TimeSpan.FromSeconds(60));
        killed.KillHard();
        return template;
    }

    private static DamageResult Probe(DamageCase damage, string store)
    {
        using var child = ChildProcess.Start(["damage-probe", store, "-", "-", BasePairs.ToString(CultureInfo.InvariantCulture), TailPairs.ToString(CultureInfo.InvariantCulture)]);
        int? exitCode = child.TryWaitForExit(ChildTimeout) ? child.ExitCode : null;
        return DamageResult.From(damage, exitCode, child.Output);
    }

    private static int? Setting(string name) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : null;
}

using System.Globalization;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.PowerLoss;

/// <summary>
/// Rule 9 under a power loss (issue 20, item 1): a child writes single puts, 2-key batches and overwrites to a fresh
/// store under the power-loss shim (powerloss-shim.c), which records every file operation of the store; the log is
/// replayed at random points into stores holding only what a power loss would keep (<see cref="PowerLossDisk"/>),
/// each opened and read by another child. Every store must open and verify clean with no half batch; Durable keeps
/// every acknowledged write, Relaxed every one older than <c>SyncInterval</c> plus <see cref="Tolerance"/>.
/// The points take turns: only what was synced; that plus an in-order prefix of each file's unsynced writes, the last
/// torn; that plus a random subset of them, torn into 4 KiB pieces (a disk's reorderings). The last two also keep a
/// random later cut of the unsynced name changes. With the feed, a subscriber in the writer's process marks every sequence
/// it sees and when, and one more point, synced only, is cut at the moment it had seen a number not yet acknowledged (the
/// records made before then): no store may give a number seen before its point to a new commit. The first point of each
/// round is also written to after it was read (<see cref="PowerLossReading.Rewrite"/>).
/// </summary>
/// <remarks>
/// CI runs one round of <see cref="DefaultPoints"/> points per backend and durability. A soak:
/// <c>DATASTORE_POWERLOSS_ROUNDS=20 DATASTORE_POWERLOSS_POINTS=40 dotnet test tests/DataStore.Tests -c Release --filter "FullyQualifiedName~PowerLossContract"</c>;
/// <c>DATASTORE_POWERLOSS_SEED=n</c> replays a run, <c>DATASTORE_POWERLOSS_WRITE_MS</c> sets how long each child writes,
/// <c>DATASTORE_POWERLOSS_KEEP=dir</c> copies every replayed store there before it is opened.
/// </remarks>
public abstract class PowerLossContract : StoreContract
{
    public const int DefaultPoints = 6;
    public const int SyncIntervalMilliseconds = 250;
    private const string Rule = "9: a power loss costs at most what the durability level allows";

    /// <summary>How much later than <c>SyncInterval</c> a Relaxed loss may reach back: the sync's own time and the timer's delay on a loaded machine.</summary>
    public static TimeSpan Tolerance { get; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// A known, written-down defect by which this backend fails only at reordered points (unsynced writes kept out of
    /// order) at this durability; when it shows, the test is skipped with this reason and the failures, never passed.
    /// </summary>
    protected virtual string? ReorderedDefect(Durability durability) => null;

    /// <summary>
    /// True to create the store with the change feed on and add deletes and prefix deletes to the workload: each replayed
    /// store's log must then agree with its data (<see cref="PowerLossLogAgreement"/>).
    /// </summary>
    protected virtual bool ChangeFeed => false;

    /// <summary>
    /// A known, written-down defect this backend shows at this durability: when every failure, at any point, contains
    /// <c>Sign</c>, the test is skipped with <c>Reason</c> and the failures, never passed.
    /// </summary>
    protected virtual (string Reason, string Sign)? KnownDefect(Durability durability) => null;

    /// <summary>
    /// True where ADR 0020 lets the change log restart after a power loss at this durability (subscribers resynchronize):
    /// the store's log and data are then judged by <see cref="PowerLossLogAgreement"/>'s restart rules. Every backend's
    /// log restarts after a Relaxed power loss.
    /// </summary>
    protected virtual bool LogRestarts(Durability durability) => ChangeFeed && durability == Durability.Relaxed;

    /// <summary>More arguments for the writer child (<c>power-loss-writes</c>): a FileSystem store's lowered split limit.</summary>
    protected virtual IReadOnlyList<string> WriterArguments => [];

    /// <summary>
    /// Log records, besides the random points, at which this backend must also be cut (record numbers, 1 = after the
    /// first), chosen where its own multi-step changes are half done; fails when the log shows none of them happened.
    /// </summary>
    protected virtual IEnumerable<int> ChosenPoints(IReadOnlyList<LogRecord> records, Random random) => [];

    [Fact]
    public void Durable_loses_nothing_acknowledged_and_every_store_opens_after_a_power_loss() => Run(Durability.Durable);

    [Fact]
    public void Relaxed_loses_at_most_about_SyncInterval_and_every_store_opens_after_a_power_loss() => Run(Durability.Relaxed);

    private void Run(Durability durability)
    {
        RequireCapability(StoreCapabilities.Persistent, Rule);
        var (library, missing) = PowerLossShim.Library;
        Assert.SkipWhen(library is null, missing ?? "");
        var seed = Setting("DATASTORE_POWERLOSS_SEED") ?? Random.Shared.Next();
        var rounds = Setting("DATASTORE_POWERLOSS_ROUNDS") ?? 1;
        var points = Setting("DATASTORE_POWERLOSS_POINTS") ?? DefaultPoints;
        var writeMs = Setting("DATASTORE_POWERLOSS_WRITE_MS") ?? 1000;
        var random = new Random(seed);
        var bound = TimeSpan.FromMilliseconds(SyncIntervalMilliseconds) + Tolerance;
        var strict = new List<string>();
        var reordered = new List<string>();
        var (acknowledged, lost, window, count) = (0, 0, 0.0, 0);
        for (var round = 0; round < rounds; round++)
        {
            var context = $"{Backend} {durability}, seed {seed}, round {round}";
            var (records, acks, seen, stores, crashes) = ReplayRound(library!, durability, random, points, writeMs, Directory.Sub($"round-{round}"), context);
            if (Environment.GetEnvironmentVariable("DATASTORE_POWERLOSS_KEEP") is { Length: > 0 } keep)
            {
                stores.ForEach(s => CopyTree(s, Path.Combine(keep, $"{Backend}-{durability}-{seed}-{round}-{Path.GetFileName(s)}")));
            }

            var readings = PowerLossReading.ReadAll(Backend, stores, new HashSet<int> { 0 });
            for (var p = 0; p < stores.Count; p++)
            {
                // Seen before the power loss: before the first record the point leaves out was made.
                var until = crashes[p].Point < records.Count ? records[crashes[p].Point].TimeNs : long.MaxValue;
                var saw = seen.Where(s => s.TimeNs < until).Select(s => s.Sequence).DefaultIfEmpty().Max();
                var verdict = PowerLossJudge.Judge(readings[p], acks, crashes[p].Point, crashes[p].TimeNs, durability, bound, LogRestarts(durability), saw);
                if (p == 0 && readings[p].Error is null && readings[p].Rewrite is null)
                {
                    verdict.Failures.Add("the reader did not write to the store after reading it");
                }

                (acknowledged, lost, window, count) = (acknowledged + verdict.Acknowledged, lost + verdict.Lost, Math.Max(window, verdict.LossWindowSeconds), count + 1);
                var where = $"{context}, point {p} (after log record {crashes[p].Point}, {crashes[p].Mode})";
                (crashes[p].Mode == CrashMode.Reordered ? reordered : strict).AddRange(verdict.Failures.Select(f => $"{where}: {f}"));
            }
        }

        var summary = $"| {Backend}{(ChangeFeed ? " with the change feed" : "")} | {durability} | {rounds} | {count} | {acknowledged} | {lost} | {window:F2} s | {strict.Count} | {reordered.Count} | {seed} |";
        TestContext.Current.TestOutputHelper?.WriteLine("| backend | durability | rounds | points | acknowledged before the points | lost | widest loss | failures (synced only, in order) | failures (reordered) | seed |");
        TestContext.Current.TestOutputHelper?.WriteLine(summary);
        var sign = KnownDefect(durability)?.Sign;
        var (strictUnknown, reorderedUnknown) = (Unknown(strict, sign), Unknown(reordered, sign));
        Assert.True(strictUnknown.Count == 0, $"{summary}\n{string.Join('\n', strictUnknown.Take(20))}");
        Assert.SkipWhen(reorderedUnknown.Count > 0 && ReorderedDefect(durability) is not null,
            $"{ReorderedDefect(durability)} Seen now: {summary}\n{string.Join('\n', reorderedUnknown.Take(10))}");
        Assert.True(reorderedUnknown.Count == 0, $"{summary}\n{string.Join('\n', reorderedUnknown.Take(20))}");
        Assert.SkipWhen(strict.Count + reordered.Count > 0,
            $"{KnownDefect(durability)?.Reason} Seen now: {summary}\n{string.Join('\n', strict.Concat(reordered).Take(10))}");
    }

    /// <summary>The failures that are not the known defect's (all of them when <paramref name="sign"/> is null).</summary>
    private static List<string> Unknown(List<string> failures, string? sign) =>
        failures.Where(f => sign is null || !f.Contains(sign, StringComparison.Ordinal)).ToList();

    /// <summary>Runs the writer under the shim, checks the log replays to the real directory, and writes out a crash state at each chosen point.</summary>
    private (List<LogRecord> Records, List<PowerLossAck> Acks, List<(long TimeNs, long Sequence)> Seen, List<string> Stores, List<(int Point, long TimeNs, CrashMode Mode)> Crashes) ReplayRound(
        string library, Durability durability, Random random, int points, int writeMs, string directory, string context)
    {
        var store = Path.Combine(directory, "store");
        var records = PowerLossWriter.Run(library, directory, Backend, durability, random.Next(), writeMs, SyncIntervalMilliseconds,
            [.. ChangeFeed ? new[] { "feed" } : [], .. WriterArguments], context);
        var acks = PowerLossAck.From(records);
        var seen = PowerLossAck.SeenBySubscriber(records);
        var seenFirst = SeenBeforeAcknowledged(records, acks, seen, random);
        var chosen = Enumerable.Range(0, points).Select(_ => random.Next(1, records.Count + 1)).Concat(ChosenPoints(records, random)).Concat(seenFirst).Order().ToList();
        var disk = new PowerLossDisk();
        var stores = new List<string>();
        var crashes = new List<(int, long, CrashMode)>();
        var applied = 0;
        for (var p = 0; p < chosen.Count; p++)
        {
            for (; applied < chosen[p]; applied++)
            {
                disk.Apply(records[applied]);
            }

            var mode = seenFirst.Contains(chosen[p]) ? CrashMode.SyncedOnly : (CrashMode)(p % 3);
            stores.Add(Path.Combine(directory, $"point-{p}"));
            disk.SaveCrashState(stores[^1], mode, new Random(random.Next()));
            crashes.Add((chosen[p], records[chosen[p] - 1].TimeNs, mode));
        }

        for (; applied < records.Count; applied++)
        {
            disk.Apply(records[applied]);
        }

        disk.SaveEverything(Path.Combine(directory, "everything"));
        var differences = DirectoryComparison.Differences(store, Path.Combine(directory, "everything"), p => disk.MappedFiles.Contains(p) || IsStdioLog(p));
        Assert.True(differences.Count == 0 && disk.Unsupported.Count == 0,
            $"the log does not replay to the store the writer left ({context}): the shim missed a call.\n{string.Join('\n', differences.Concat(disk.Unsupported).Take(20))}");
        return (records, acks, seen, stores, crashes);
    }

    /// <summary>
    /// One point (at random among them) at the moment the subscriber had seen a sequence whose commit was not acknowledged
    /// yet (every record made by then), so a power loss there may take back a number already seen; none when it never did.
    /// </summary>
    private static int[] SeenBeforeAcknowledged(List<LogRecord> records, List<PowerLossAck> acks, List<(long TimeNs, long Sequence)> seen, Random random)
    {
        var acknowledgedAt = acks.Where(a => a.Sequence > 0).GroupBy(a => a.Sequence).ToDictionary(g => g.Key, g => g.Min(a => a.TimeNs));
        var early = seen.Where(s => acknowledgedAt.GetValueOrDefault(s.Sequence, long.MaxValue) > s.TimeNs).ToList();
        var point = early.Count == 0 ? 0 : records.Count(r => r.TimeNs <= early[random.Next(early.Count)].TimeNs);
        return point == 0 ? [] : [point];
    }

    /// <summary>RocksDB's info log (<c>LOG</c>, <c>LOG.old.*</c>) is written through stdio, which the shim does not see; it holds no data.</summary>
    private static bool IsStdioLog(string path) => Path.GetFileName(path).StartsWith("LOG", StringComparison.Ordinal);

    private static void CopyTree(string from, string to)
    {
        System.IO.Directory.CreateDirectory(to);
        foreach (var file in System.IO.Directory.GetFiles(from))
        {
            File.Copy(file, Path.Combine(to, Path.GetFileName(file)));
        }

        foreach (var directory in System.IO.Directory.GetDirectories(from))
        {
            CopyTree(directory, Path.Combine(to, Path.GetFileName(directory)));
        }
    }

    private static int? Setting(string name) =>
        int.TryParse(Environment.GetEnvironmentVariable(name), NumberStyles.None, CultureInfo.InvariantCulture, out var value) ? value : null;
}

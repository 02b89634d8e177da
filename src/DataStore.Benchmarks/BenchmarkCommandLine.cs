namespace DataStore.Benchmarks;

/// <summary>
/// The options this project reads from the command line before handing the rest to BenchmarkDotNet:
/// <c>--backends Sqlite,Lmdb</c> (the backends, and their hand-written peers, every suite runs over) and
/// <c>--records N</c> (the YCSB record count) and <c>--keys N</c> (the keys the other suites preload). The environment
/// variables <c>DATASTORE_BENCH_BACKENDS</c>, <c>DATASTORE_BENCH_RECORDS</c> and <c>DATASTORE_BENCH_KEYS</c> say the same;
/// the command line wins, and is passed on to the benchmark processes through those variables.
/// </summary>
public static class BenchmarkCommandLine
{
    private const string BackendsVariable = "DATASTORE_BENCH_BACKENDS";
    private const string RecordsVariable = "DATASTORE_BENCH_RECORDS";
    private const string KeysVariable = "DATASTORE_BENCH_KEYS";

    /// <summary>The keys the core, scan and baseline suites preload when none are given (their results are per this size).</summary>
    public const int DefaultKeys = 100_000;

    /// <summary>The YCSB record count when none is given: small, so that a dry pass takes seconds.</summary>
    public const int DefaultRecords = 10_000;

    /// <summary>
    /// BenchmarkDotNet's options that make a job of their own: given beside a suite's own job, each would run as a
    /// second job rather than change the first.
    /// </summary>
    private static readonly string[] JobOptions =
    [
        "--job", "-j", "--runtimes", "-r", "--inProcess", "-i", "--launchCount", "--warmupCount", "--minWarmupCount",
        "--maxWarmupCount", "--iterationTime", "--iterationCount", "--minIterationCount", "--maxIterationCount",
        "--invocationCount", "--unrollFactor", "--strategy", "--platform", "--runOncePerIteration", "--envVars",
    ];

    /// <summary>True when the command line shapes a job (<c>--job</c>, <c>--iterationCount</c>, <c>--inProcess</c>, ...): the suites then add none of their own.</summary>
    public static bool JobGiven { get; private set; }

    /// <summary>The backends selected, or null for every backend this build includes.</summary>
    public static string[]? Backends =>
        Environment.GetEnvironmentVariable(BackendsVariable) is { Length: > 0 } list ? list.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries) : null;

    /// <summary>The YCSB record count.</summary>
    public static int Records => RecordsOr(DefaultRecords);

    /// <summary>The record count given on the command line, or <paramref name="fallback"/> when none was.</summary>
    public static int RecordsOr(int fallback) => Positive(RecordsVariable) ?? fallback;

    /// <summary>The keys the core, scan and baseline suites preload; fewer than <see cref="DefaultKeys"/> only for a dry pass (per-key times assume the default).</summary>
    public static int Keys => Positive(KeysVariable) ?? DefaultKeys;

    /// <summary>True when fewer keys than <see cref="DefaultKeys"/> are preloaded, as in CI's dry pass: suites with many cases then keep fewer.</summary>
    public static bool DryPass => Keys < DefaultKeys;

    /// <summary>True when <paramref name="name"/> (a backend's name) is selected.</summary>
    public static bool Selects(string name) => Backends is not { } list || list.Contains(name, StringComparer.OrdinalIgnoreCase);

    /// <summary>Takes this project's options out of <paramref name="args"/> and returns what BenchmarkDotNet should parse.</summary>
    /// <exception cref="ArgumentException">An option without its value, or a record count that is not a positive number.</exception>
    public static string[] Parse(string[] args)
    {
        var rest = new List<string>();
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--backends":
                    var backends = ValueOf(args, ref i);
                    var unknown = backends.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
                        .Where(name => !Enum.TryParse<StoreBackend>(name, ignoreCase: true, out _) && !Ycsb.YcsbTarget.OtherEngines.Contains(name, StringComparer.OrdinalIgnoreCase)).ToArray();
                    if (unknown.Length > 0)
                    {
                        throw new ArgumentException($"--backends: no backend named {string.Join(", ", unknown)}; the backends are {string.Join(", ", Enum.GetNames<StoreBackend>())}, and the YCSB suite's other engines {string.Join(", ", Ycsb.YcsbTarget.OtherEngines)}.");
                    }

                    Environment.SetEnvironmentVariable(BackendsVariable, backends);
                    break;
                case "--records":
                    Environment.SetEnvironmentVariable(RecordsVariable, PositiveValueOf(args, ref i));
                    break;
                case "--keys":
                    Environment.SetEnvironmentVariable(KeysVariable, PositiveValueOf(args, ref i));
                    break;
                default:
                    JobGiven |= JobOptions.Contains(args[i].Split('=')[0], StringComparer.OrdinalIgnoreCase);
                    rest.Add(args[i]);
                    break;
            }
        }

        return [.. rest];
    }

    private static int? Positive(string variable) =>
        int.TryParse(Environment.GetEnvironmentVariable(variable), out var value) && value > 0 ? value : null;

    private static string PositiveValueOf(string[] args, ref int i)
    {
        var value = ValueOf(args, ref i);
        return int.TryParse(value, out var count) && count > 0 ? value : throw new ArgumentException($"{args[i - 1]} takes a positive number, not '{value}'.");
    }

    private static string ValueOf(string[] args, ref int i) =>
        ++i < args.Length && !args[i].StartsWith('-') ? args[i] : throw new ArgumentException($"{args[i - 1]} needs a value, for example {args[i - 1]} {(args[i - 1] == "--records" ? "100000" : "Sqlite,Lmdb")}.");
}

using System.Globalization;
using DataStore.Benchmarks.Latency;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// The YCSB latencies of a run as a CSV beside BenchmarkDotNet's reports (<c>results/YcsbBenchmarks-latency.csv</c>):
/// one row per case and kind of operation, with its count, p50, p99 and maximum in nanoseconds. Benchmark processes
/// append their rows as each case ends; a workload a target cannot run gets a <c>not supported</c> row instead.
/// </summary>
public static class YcsbLatencyReport
{
    /// <summary>The header of the CSV.</summary>
    public const string Header = "Target,Threads,Records,Workload,Operation,Count,P50Ns,P99Ns,MaxNs";

    /// <summary>The operation column of a row for a workload a target does not support.</summary>
    public const string NotSupported = "not supported";

    private const string FileVariable = "DATASTORE_BENCH_LATENCY_FILE";
    private static readonly Lock Gate = new();

    /// <summary>The CSV of this run, or null when the run did not name one (<see cref="Begin"/>).</summary>
    public static string? FilePath => Environment.GetEnvironmentVariable(FileVariable) is { Length: > 0 } path ? path : null;

    /// <summary>Names this run's CSV in <paramref name="artifactsDirectory"/>'s results, removes one an earlier run left there, and passes the name on to the benchmark processes.</summary>
    public static void Begin(string artifactsDirectory)
    {
        var path = Path.Combine(Path.GetFullPath(artifactsDirectory), "results", "YcsbBenchmarks-latency.csv");
        if (File.Exists(path))
        {
            File.Delete(path);
        }

        Environment.SetEnvironmentVariable(FileVariable, path);
    }

    /// <summary>Appends the rows of one finished case: one per kind of operation it ran.</summary>
    public static void Append(string target, int threads, int records, string workload, YcsbLatencies latencies)
    {
        var rows = Enum.GetValues<YcsbOperation>().Where(o => latencies[o].Count > 0).Select(o => Row(target, threads, records, workload, o.ToString(), latencies[o]));
        Write(rows);
    }

    /// <summary>Appends a row saying <paramref name="target"/> cannot run <paramref name="workload"/>.</summary>
    public static void AppendNotSupported(string target, int threads, int records, string workload) =>
        Write([string.Join(',', target, threads, records, workload, NotSupported, 0, 0, 0, 0)]);

    /// <summary>The rows of this run's CSV (no header), each split into its fields; none when there is no file yet.</summary>
    public static IReadOnlyList<string[]> ReadRows()
    {
        lock (Gate)
        {
            return FilePath is { } path && File.Exists(path) ? File.ReadLines(path).Skip(1).Select(l => l.Split(',')).ToArray() : [];
        }
    }

    private static string Row(string target, int threads, int records, string workload, string operation, LatencyHistogram histogram) =>
        string.Join(',', target, threads, records, workload, operation, histogram.Count, Number(histogram.Percentile(0.50)), Number(histogram.Percentile(0.99)), histogram.MaxNanoseconds);

    private static string Number(double nanoseconds) => nanoseconds.ToString("0", CultureInfo.InvariantCulture);

    private static void Write(IEnumerable<string> rows)
    {
        if (FilePath is not { } path)
        {
            return;
        }

        lock (Gate)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            var lines = rows.ToList();
            if (!File.Exists(path))
            {
                lines.Insert(0, Header);
            }

            File.AppendAllLines(path, lines);
        }
    }
}

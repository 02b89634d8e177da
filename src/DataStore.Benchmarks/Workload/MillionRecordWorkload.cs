using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace DataStore.Benchmarks.Workload;

/// <summary>
/// The <c>workload</c> command: the 1,000,000-record workload (<see cref="WorkloadPhases"/>) on each selected backend, each
/// in a child process of its own so that its peak memory is that backend's alone, then one markdown table of every
/// phase's operations per second and each child's peak RssAnon.
/// </summary>
/// <remarks>
/// <c>dotnet run -c Release --project src/DataStore.Benchmarks -- workload [--backends Sqlite,Lmdb] [--records 1000000]</c>.
/// The parent samples the child's <c>/proc/PID/status</c> every 10 ms; the child also reads its own at each phase's end.
/// </remarks>
public static class MillionRecordWorkload
{
    /// <summary>The records when <c>--records</c> is not given.</summary>
    public const int DefaultRecords = 1_000_000;

    /// <summary>Runs the command with <paramref name="args"/>, the arguments after <c>workload</c> that <see cref="BenchmarkCommandLine"/> left.</summary>
    public static int Run(string[] args)
    {
        var records = BenchmarkCommandLine.RecordsOr(DefaultRecords);
        if (args is ["--child", var childBackend, "--directory", var directory])
        {
            return WorkloadChild.Run(Enum.Parse<StoreBackend>(childBackend), records, directory);
        }

        if (args.Length > 0)
        {
            Console.Error.WriteLine($"workload: unknown option {args[0]}; it takes --backends and --records.");
            return 2;
        }

        var loadBefore = LoadAverage();
        var results = new List<WorkloadResult>();
        var failed = 0;
        foreach (var backend in BackendCase.All)
        {
            Console.Error.WriteLine($"workload: {backend}, {records:N0} records");
            if (RunChild(backend.Backend, records) is { } result)
            {
                results.Add(result);
            }
            else
            {
                failed++; // the others' results are still printed
            }
        }

        Console.WriteLine($"{records:N0} records, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average {loadBefore} before, {LoadAverage()} after; operations per second");
        Console.WriteLine();
        Console.Write(results.Count > 0 ? Table(results) : "no backend finished\n");
        return failed == 0 ? 0 : 1;
    }

    private static WorkloadResult? RunChild(StoreBackend backend, int records)
    {
        var directory = BenchmarkData.NewDirectory();
        var start = new ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardOutput = true };
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet")
        {
            start.ArgumentList.Add(typeof(MillionRecordWorkload).Assembly.Location); // run as `dotnet DataStore.Benchmarks.dll`
        }

        foreach (var argument in new[] { "workload", "--records", records.ToString(CultureInfo.InvariantCulture), "--child", backend.ToString(), "--directory", directory })
        {
            start.ArgumentList.Add(argument);
        }

        var result = new WorkloadResult(backend.ToString());
        try
        {
            using var child = Process.Start(start)!;
            var output = child.StandardOutput.ReadToEndAsync();
            while (!child.WaitForExit(10))
            {
                result.Sample(ProcessMemory.Read(child.Id)?.RssAnonKiB ?? 0);
            }

            foreach (var line in output.Result.Split('\n', StringSplitOptions.RemoveEmptyEntries))
            {
                result.Add(line);
            }

            if (child.ExitCode != 0)
            {
                Console.Error.WriteLine($"workload: the {backend} child failed with exit code {child.ExitCode}");
                return null;
            }
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }

        return result;
    }

    private static string Table(List<WorkloadResult> results)
    {
        var table = new StringBuilder();
        table.AppendLine($"| phase (operations) | {string.Join(" | ", results.Select(r => r.Backend))} |");
        table.AppendLine($"|---|{string.Concat(results.Select(_ => "---:|"))}");
        foreach (var (name, operations, _) in results[0].Phases)
        {
            var rates = results.Select(r => r.Phases.Single(p => p.Name == name)).Select(p => (p.Operations / p.Seconds).ToString("N0", CultureInfo.InvariantCulture));
            table.AppendLine($"| {name} ({operations:N0}) | {string.Join(" | ", rates)} |");
        }

        table.AppendLine($"| peak RssAnon, MiB | {string.Join(" | ", results.Select(r => MiB(r.PeakAnonKiB)))} |");
        table.AppendLine($"| RssAnon before the store opened, MiB | {string.Join(" | ", results.Select(r => MiB(r.BeforeKiB)))} |");
        table.AppendLine($"| peak RSS (VmHWM, file pages included), MiB | {string.Join(" | ", results.Select(r => MiB(r.PeakRssKiB)))} |");
        table.AppendLine($"| .NET heap live at the end (after a full collection), MiB | {string.Join(" | ", results.Select(r => MiB(r.LiveHeapKiB)))} |");
        table.AppendLine($"| .NET heap allocated per operation, B | {string.Join(" | ", results.Select(r => (r.AllocatedBytes / Math.Max(1, r.Operations)).ToString("N0", CultureInfo.InvariantCulture)))} |");
        return table.ToString();
    }

    private static string MiB(long kib) => (kib / 1024.0).ToString("0.0", CultureInfo.InvariantCulture);

    /// <summary>The 1, 5 and 15 minute load averages, as <c>/proc/loadavg</c> gives them.</summary>
    internal static string LoadAverage() =>
        File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "unknown";
}

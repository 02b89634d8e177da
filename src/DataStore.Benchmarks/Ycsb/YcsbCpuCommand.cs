using System.Diagnostics;
using System.Globalization;
using System.Text;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// The <c>ycsb-cpu</c> command: the CPU time per YCSB operation of each selected target (a backend and its peer) over a
/// fixed number of operations, rounds alternating between the targets, medians printed as a markdown table. On a
/// loaded machine the process's CPU time (every thread's, the engine's background work included) moves far less than
/// the wall clock, which waits for a core. The voluntary context switches per operation (<see cref="ProcessUsage"/>)
/// count how often a thread blocked: a lock or a futex the workload waits in.
/// </summary>
/// <remarks>
/// <c>dotnet run -c Release --project src/DataStore.Benchmarks -- ycsb-cpu --backends RocksDb --records 100000
/// [--workloads A,B,C,F] [--threads 1,4] [--operations 600000] [--rounds 3]</c>. Each measurement loads a new store in a
/// new directory as <see cref="YcsbBenchmarks"/> does, runs a tenth of the operations to warm up, then times the rest.
/// </remarks>
public static class YcsbCpuCommand
{
    /// <summary>Runs the command with <paramref name="args"/>, the arguments after <c>ycsb-cpu</c> that <see cref="BenchmarkCommandLine"/> left.</summary>
    public static int Run(string[] args)
    {
        var options = args.Chunk(2).Where(pair => pair.Length == 2).ToDictionary(pair => pair[0], pair => pair[1]);
        var unknown = args.Length % 2 != 0 ? args[^1] : options.Keys.Except(["--workloads", "--threads", "--operations", "--rounds"]).FirstOrDefault();
        if (unknown is not null)
        {
            Console.Error.WriteLine($"ycsb-cpu: unknown option {unknown}; it takes --backends, --records, --workloads, --threads, --operations and --rounds.");
            return 2;
        }

        var workloads = options.GetValueOrDefault("--workloads", "A,B,C,F").Split(',').Select(WorkloadNamed).ToArray();
        var threads = options.GetValueOrDefault("--threads", "1,4").Split(',').Select(int.Parse).ToArray();
        var operations = int.Parse(options.GetValueOrDefault("--operations", "600000"), CultureInfo.InvariantCulture);
        var rounds = int.Parse(options.GetValueOrDefault("--rounds", "3"), CultureInfo.InvariantCulture);
        var records = BenchmarkCommandLine.Records;
        var targets = YcsbTarget.All.ToArray();
        var loadBefore = DataStore.Benchmarks.Workload.MillionRecordWorkload.LoadAverage();
        var runs = new Dictionary<(string Workload, int Threads, string Target), List<Measurement>>();
        for (var round = 0; round < rounds; round++)
        {
            foreach (var workload in workloads)
            {
                foreach (var count in threads)
                {
                    foreach (var target in targets.Where(t => t.OrderedScans || workload != YcsbWorkload.E))
                    {
                        var run = Measure(target, workload, count, records, operations);
                        Console.Error.WriteLine($"ycsb-cpu: round {round + 1}, {workload.Name} {count}t {target.Name}: {run.Cpu:F3} us CPU, {run.Wall:F3} us wall, {run.Waits:F4} waits an operation");
                        (runs.TryGetValue((workload.Name, count, target.Name), out var list) ? list : runs[(workload.Name, count, target.Name)] = []).Add(run);
                    }
                }
            }
        }

        Console.WriteLine($"{records:N0} records, {operations:N0} operations a run, {rounds} rounds, {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, load average {loadBefore} before, {DataStore.Benchmarks.Workload.MillionRecordWorkload.LoadAverage()} after");
        Console.WriteLine();
        Console.Write(Table(runs));
        return 0;
    }

    private static Measurement Measure(YcsbTarget target, YcsbWorkload workload, int threads, int records, int operations)
    {
        var directory = BenchmarkData.NewDirectory();
        Directory.CreateDirectory(directory);
        var store = target.Open(directory);
        try
        {
            var valuePool = BenchmarkData.ValuePool(17);
            YcsbLoad.Into(store, records, valuePool);
            var zipfian = new ZipfianGenerator(records);
            var counter = new YcsbRecordCounter(records);
            var workers = Enumerable.Range(0, threads).Select(t => new YcsbWorker(100 + t, zipfian, counter, valuePool)).ToArray();
            var parallel = new ParallelOptions { MaxDegreeOfParallelism = threads };
            Parallel.For(0, threads, parallel, t => workers[t].Run(store, workload, operations / 10 / threads));
            using var process = Process.GetCurrentProcess();
            var cpu = process.TotalProcessorTime;
            var usage = ProcessUsage.Now();
            var wall = Stopwatch.StartNew();
            Parallel.For(0, threads, parallel, t => workers[t].Run(store, workload, operations / threads));
            wall.Stop();
            var waits = ProcessUsage.Now().Voluntary - usage.Voluntary;
            process.Refresh();
            return new Measurement((process.TotalProcessorTime - cpu).TotalMicroseconds / operations, wall.Elapsed.TotalMicroseconds / operations, (double)waits / operations);
        }
        finally
        {
            store.Dispose();
            Directory.Delete(directory, recursive: true);
        }
    }

    // One row per workload, threads and target: every round's CPU time, the medians, and a peer's CPU over the backend's (above 1.0 DataStore costs less).
    private static string Table(Dictionary<(string Workload, int Threads, string Target), List<Measurement>> runs)
    {
        var table = new StringBuilder("| workload | threads | target | CPU us/op (rounds) | median CPU us/op | median wall us/op | median waits/op | peer CPU / this |\n|---|---:|---|---|---:|---:|---:|---:|\n");
        foreach (var ((workload, threads, target), list) in runs)
        {
            var cpu = Median(list.Select(r => r.Cpu));
            var ratio = runs.TryGetValue((workload, threads, target + "Peer"), out var peer) ? $"{Median(peer.Select(r => r.Cpu)) / cpu:F2}x" : "";
            table.Append(CultureInfo.InvariantCulture, $"| {workload} | {threads} | {target} | {string.Join(", ", list.Select(r => r.Cpu.ToString("F2", CultureInfo.InvariantCulture)))} | {cpu:F2} | {Median(list.Select(r => r.Wall)):F2} | {Median(list.Select(r => r.Waits)):F4} | {ratio} |\n");
        }

        return table.ToString();
    }

    private static double Median(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static YcsbWorkload WorkloadNamed(string name) =>
        new[] { YcsbWorkload.A, YcsbWorkload.B, YcsbWorkload.C, YcsbWorkload.D, YcsbWorkload.E, YcsbWorkload.F }.FirstOrDefault(w => w.Name == name.Trim().ToUpperInvariant())
        ?? throw new ArgumentException($"--workloads: no workload named '{name}'; the workloads are A to F.");

    // One measured run, per operation: the process's CPU time, the wall clock, and the voluntary context switches (waits).
    private readonly record struct Measurement(double Cpu, double Wall, double Waits);
}

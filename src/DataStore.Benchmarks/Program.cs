// dotnet run -c Release --project src/DataStore.Benchmarks -- --filter '*' [--backends Sqlite,Lmdb] [--records 100000]
// Runs from any directory; results go to ./BenchmarkDotNet.Artifacts of the directory it was started from.
// dotnet run -c Release --project src/DataStore.Benchmarks -- workload [--backends Sqlite,Lmdb] [--records 1000000]: the
// 1,000,000-record workload, each backend in a child process, printed as a markdown table.
// dotnet run -c Release --project src/DataStore.Benchmarks -- ycsb-cpu --backends RocksDb --records 100000: CPU time per
// YCSB operation of each backend and its peer, alternating rounds (Ycsb/YcsbCpuCommand.cs).
using BenchmarkDotNet.Running;
using DataStore.Benchmarks;
using DataStore.Benchmarks.Workload;
using DataStore.Benchmarks.Ycsb;

string[] benchmarkArgs;
try
{
    benchmarkArgs = BenchmarkCommandLine.Parse(args);
}
catch (ArgumentException e)
{
    Console.Error.WriteLine(e.Message);
    return 2;
}

if (benchmarkArgs is ["workload", .. var workloadArgs])
{
    return MillionRecordWorkload.Run(workloadArgs);
}

if (benchmarkArgs is ["ycsb-cpu", .. var cpuArgs])
{
    return YcsbCpuCommand.Run(cpuArgs);
}

benchmarkArgs = ProjectDirectory.Enter(benchmarkArgs);
var artifacts = Array.FindIndex(benchmarkArgs, a => a is "--artifacts" or "-a");
YcsbLatencyReport.Begin(artifacts >= 0 && artifacts + 1 < benchmarkArgs.Length ? benchmarkArgs[artifacts + 1] : "BenchmarkDotNet.Artifacts");
var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(benchmarkArgs);

// A benchmark that threw (its setup, or one invocation) fails the run, so a dry pass in CI catches it.
var failed = summaries.Where(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success)).Select(s => s.Title).ToArray();
foreach (var title in failed)
{
    Console.Error.WriteLine($"benchmarks failed: {title}");
}

return failed.Length == 0 ? 0 : 1;

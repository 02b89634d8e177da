using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Running;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// The YCSB suite's columns and filter: a p50 / p99 column per kind of operation, and no case for a workload a target
/// cannot run (workload E on a target without ordered scans), which is printed and recorded as not supported instead.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class YcsbConfigAttribute : Attribute, IConfigSource
{
    private static readonly HashSet<string> Reported = [];

    /// <inheritdoc />
    public IConfig Config { get; } = ManualConfig.CreateEmpty()
        .AddColumn(Enum.GetValues<YcsbOperation>().Select(o => new YcsbLatencyColumn(o)).ToArray())
        .AddFilter(new SimpleFilter(Supported));

    private static bool Supported(BenchmarkCase benchmarkCase)
    {
        if (benchmarkCase.Descriptor.WorkloadMethod.Name != YcsbWorkload.E.Name || benchmarkCase.Parameters["Target"] is not YcsbTarget { OrderedScans: false } target)
        {
            return true;
        }

        var threads = (int)benchmarkCase.Parameters["Threads"];
        var records = (int)benchmarkCase.Parameters["Records"];
        lock (Reported)
        {
            if (Reported.Add($"{target.Name} {threads} {records}"))
            {
                Console.WriteLine($"// YCSB E on {target.Name} ({threads} thread(s)): not supported, {target.Name} has no ordered scan; no result is reported for it.");
                YcsbLatencyReport.AppendNotSupported(target.Name, threads, records, YcsbWorkload.E.Name);
            }
        }

        return false;
    }
}

using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>A column of the YCSB table: p50 / p99 of one kind of operation in each case, read from <see cref="YcsbLatencyReport"/>'s CSV.</summary>
public sealed class YcsbLatencyColumn(YcsbOperation operation) : IColumn
{
    public string Id => "YcsbLatency" + operation;

    public string ColumnName => $"{operation} p50 / p99";

    public bool AlwaysShow => true;

    public ColumnCategory Category => ColumnCategory.Custom;

    public int PriorityInCategory => (int)operation;

    public bool IsNumeric => false;

    public UnitType UnitType => UnitType.Dimensionless;

    public string Legend => $"{operation} latency: median / 99th percentile over every invocation of the case (warm-up included)";

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

    public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style)
    {
        var target = benchmarkCase.Parameters["Target"]?.ToString();
        var threads = benchmarkCase.Parameters["Threads"]?.ToString();
        var workload = benchmarkCase.Descriptor.WorkloadMethod.Name;
        var row = YcsbLatencyReport.ReadRows().LastOrDefault(r => r.Length >= 9 && r[0] == target && r[1] == threads && r[3] == workload && (r[4] == operation.ToString() || r[4] == YcsbLatencyReport.NotSupported));
        return row is null ? "-" : row[4] == YcsbLatencyReport.NotSupported ? "not supported" : $"{Time(row[6])} / {Time(row[7])}";
    }

    public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

    public bool IsAvailable(Summary summary) => true;

    public override string ToString() => ColumnName;

    private static string Time(string nanoseconds)
    {
        var value = double.Parse(nanoseconds, CultureInfo.InvariantCulture);
        return value switch
        {
            < 1e3 => $"{value:0} ns",
            < 1e6 => (value / 1e3).ToString(value < 1e4 ? "0.0" : "0", CultureInfo.InvariantCulture) + " us",
            _ => (value / 1e6).ToString(value < 1e7 ? "0.0" : "0", CultureInfo.InvariantCulture) + " ms",
        };
    }
}

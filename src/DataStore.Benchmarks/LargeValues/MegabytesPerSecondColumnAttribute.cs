using System.Globalization;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Reports;
using BenchmarkDotNet.Running;

namespace DataStore.Benchmarks.LargeValues;

/// <summary>Adds a column of MB/s (10^6 bytes a second): a case's <c>ValueSize</c> parameter over its mean time per operation.</summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class MegabytesPerSecondColumnAttribute : Attribute, IConfigSource
{
    /// <inheritdoc />
    public IConfig Config { get; } = ManualConfig.CreateEmpty().AddColumn(new MegabytesPerSecondColumn());

    private sealed class MegabytesPerSecondColumn : IColumn
    {
        public string Id => nameof(MegabytesPerSecondColumn);

        public string ColumnName => "MB/s";

        public bool AlwaysShow => true;

        public ColumnCategory Category => ColumnCategory.Custom;

        public int PriorityInCategory => 0;

        public bool IsNumeric => true;

        public UnitType UnitType => UnitType.Dimensionless;

        public string Legend => "ValueSize bytes over the mean time per operation, in 10^6 bytes a second";

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase) => GetValue(summary, benchmarkCase, SummaryStyle.Default);

        public string GetValue(Summary summary, BenchmarkCase benchmarkCase, SummaryStyle style) =>
            summary[benchmarkCase]?.ResultStatistics is { Mean: > 0 } statistics && benchmarkCase.Parameters["ValueSize"] is int size
                ? (size / statistics.Mean * 1e9 / 1e6).ToString("0.0", CultureInfo.InvariantCulture)
                : "-";

        public bool IsDefault(Summary summary, BenchmarkCase benchmarkCase) => false;

        public bool IsAvailable(Summary summary) => true;

        public override string ToString() => ColumnName;
    }
}

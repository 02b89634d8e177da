#:package ScottPlot@5.1.59
#:property PublishAot=false
#:property ManagePackageVersionsCentrally=false

// Turns BenchmarkDotNet's CSV reports into one cross-backend summary (markdown) and one chart per suite (SVG):
//   dotnet run scripts/bench-summary.cs -- RESULTS_DIR OUT_DIR [TITLE]
// RESULTS_DIR holds *-report.csv (BenchmarkDotNet.Artifacts/results). Each suite becomes a table of operations per
// second (1 / Mean: per key, per operation over all threads, or per batch, as the suite's doc says), a row per method
// and thread count, a column per backend or peer, and for each backend with a hand-written peer the ratio
// DataStore / peer (above 1.0: DataStore is faster); where ZoneTree ran too, DataStore's best on-disk backend / ZoneTree.
// A suite with a SUITE-latency.csv beside its report (YcsbBenchmarks) also gets a p50 / p99 table per kind of operation
// and a p99 chart. OUT_DIR gets summary.md, SUITE.svg and SUITE-p99.svg.
using System.Globalization;
using System.Text;

if (args.Length < 2)
{
    Console.Error.WriteLine("usage: dotnet run scripts/bench-summary.cs -- RESULTS_DIR OUT_DIR [TITLE]");
    return 2;
}

var reports = Directory.GetFiles(args[0], "*-report.csv").Order(StringComparer.Ordinal).ToArray();
if (reports.Length == 0)
{
    Console.Error.WriteLine($"no *-report.csv in {args[0]}");
    return 2;
}

Directory.CreateDirectory(args[1]);
var summary = new StringBuilder($"# {(args.Length > 2 ? args[2] : "Benchmark summary")}\n\n");
summary.Append("Operations per second (1 / Mean); the `X / XPeer` columns are DataStore over X divided by the hand-written peer on the same engine (above 1.0: DataStore is faster).\n\n");
foreach (var report in reports)
{
    var suite = Path.GetFileName(report).Replace("-report.csv", "", StringComparison.Ordinal).Split('.')[^1];
    var rows = Csv.Read(report);
    if (rows.Count == 0)
    {
        continue;
    }

    var labelColumn = new[] { "Target", "Backend", "Connection" }.FirstOrDefault(rows[0].ContainsKey);
    var keyColumns = new[] { "Method", "ValueSize", "Threads" }.Where(rows[0].ContainsKey).ToArray();
    string Label(Dictionary<string, string> row) => labelColumn is null ? suite : row[labelColumn];
    string Key(Dictionary<string, string> row) => string.Join(" ", keyColumns.Select(c => c switch
    {
        "Threads" => $"{row[c]}t",
        "ValueSize" => $"{row[c]} B",
        _ => row[c],
    }));

    var latencies = Latencies.Read(Path.Combine(args[0], suite + "-latency.csv"));
    var labels = rows.Select(Label).Distinct().ToArray();
    var keys = rows.GroupBy(Label).MaxBy(g => g.Count())!.Select(Key).Concat(rows.Select(Key)).Distinct().ToArray(); // the fullest label's order
    var opsPerSecond = rows.Where(r => Csv.Nanoseconds(r["Mean"]) is > 0).ToDictionary(r => (Key(r), Label(r)), r => 1e9 / Csv.Nanoseconds(r["Mean"])!.Value);
    var peered = labels.Where(l => labels.Contains(l + "Peer")).ToArray();
    var ours = labels.Where(l => !l.EndsWith("Peer", StringComparison.Ordinal) && !Latencies.OtherEngines.Contains(l) && l != "InMemory").ToArray(); // stores on disk
    var reference = labels.Contains("ZoneTree") && ours.Length > 0 ? "ZoneTree" : null;

    summary.Append($"## {suite}\n\n![{suite}]({suite}.svg)\n\n{Csv.Environment(report)}| | {string.Join(" | ", labels)}{string.Concat(peered.Select(p => $" | {p} / {p}Peer"))}{(reference is null ? "" : $" | best / {reference}")} |\n");
    summary.Append($"|---|{string.Concat(labels.Select(_ => "---:|"))}{string.Concat(peered.Select(_ => "---:|"))}{(reference is null ? "" : "---:|")}\n");
    foreach (var key in keys)
    {
        summary.Append($"| {key} |");
        foreach (var label in labels)
        {
            summary.Append(opsPerSecond.TryGetValue((key, label), out var ops) ? $" {Csv.Format(ops)} |" : latencies.NotSupported(key, label) ? " not supported |" : " - |");
        }

        foreach (var label in peered)
        {
            summary.Append(opsPerSecond.TryGetValue((key, label), out var mine) && opsPerSecond.TryGetValue((key, label + "Peer"), out var theirs)
                ? $" {mine / theirs:0.00}x |"
                : " - |");
        }

        if (reference is not null)
        {
            var best = ours.Where(l => opsPerSecond.ContainsKey((key, l))).MaxBy(l => opsPerSecond[(key, l)]);
            summary.Append(best is not null && opsPerSecond.TryGetValue((key, reference), out var theirs) ? $" {opsPerSecond[(key, best)] / theirs:0.00}x ({best}) |" : " - |");
        }

        summary.Append('\n');
    }

    summary.Append('\n');
    Chart.Save(Path.Combine(args[1], suite + ".svg"), suite, keys, labels, opsPerSecond, "operations per second (log scale)", 1);
    if (latencies.Any)
    {
        summary.Append(latencies.Table(labels)).Append($"![{suite}: p99 latency]({suite}-p99.svg)\n\n");
        var p99 = latencies.P99Microseconds();
        Chart.Save(Path.Combine(args[1], suite + "-p99.svg"), suite + ": p99 latency", p99.Keys.Select(k => k.Item1).Distinct().ToArray(), labels, p99, "p99 latency, microseconds (log scale)", 0.01);
    }
}

File.WriteAllText(Path.Combine(args[1], "summary.md"), summary.ToString());
Console.WriteLine($"wrote {Path.Combine(args[1], "summary.md")} and {reports.Length} chart(s)");
return 0;

/// <summary>Reads BenchmarkDotNet's CSV (quoted fields, thousands separators, units in the cells).</summary>
static class Csv
{
    public static List<Dictionary<string, string>> Read(string path)
    {
        var lines = File.ReadAllLines(path).Where(l => l.Length > 0).Select(Fields).ToArray();
        return lines.Skip(1).Select(f => lines[0].Zip(f).ToDictionary(p => p.First, p => p.Second)).ToList();
    }

    /// <summary>The machine and job block BenchmarkDotNet wrote beside the CSV (its -report-github.md), as a code block.</summary>
    public static string Environment(string csvPath)
    {
        var markdown = csvPath.Replace("-report.csv", "-report-github.md", StringComparison.Ordinal);
        if (!File.Exists(markdown))
        {
            return "";
        }

        var text = File.ReadAllText(markdown);
        var end = text.IndexOf("```", 3, StringComparison.Ordinal);
        return text.StartsWith("```", StringComparison.Ordinal) && end > 0 ? text[..(end + 3)] + "\n\n" : "";
    }

    /// <summary>A time cell ("1,234.5 ns", "12.3 us", "4 ms") in nanoseconds, or null for "NA".</summary>
    public static double? Nanoseconds(string cell)
    {
        var parts = cell.Replace(",", "", StringComparison.Ordinal).Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length == 0 || !double.TryParse(parts[0], NumberStyles.Float, CultureInfo.InvariantCulture, out var value))
        {
            return null;
        }

        return value * (parts.Length < 2 ? 1 : parts[1] switch { "ns" => 1, "us" or "μs" or "µs" => 1e3, "ms" => 1e6, "s" => 1e9, _ => double.NaN });
    }

    public static string Format(double ops) => ops >= 100 ? ops.ToString("N0", CultureInfo.InvariantCulture) : ops.ToString("0.0", CultureInfo.InvariantCulture);

    private static string[] Fields(string line)
    {
        var fields = new List<string>();
        var field = new StringBuilder();
        var quoted = false;
        foreach (var c in line)
        {
            if (c == '"')
            {
                quoted = !quoted;
            }
            else if (c == ',' && !quoted)
            {
                fields.Add(field.ToString());
                field.Clear();
            }
            else
            {
                field.Append(c);
            }
        }

        fields.Add(field.ToString());
        return [.. fields];
    }
}

/// <summary>One grouped bar chart per suite: a group per method and thread count, a bar per backend or peer, log scale.</summary>
static class Chart
{
    public static void Save(string path, string title, string[] keys, string[] labels, Dictionary<(string, string), double> values, string axis, double floor)
    {
        var plot = new ScottPlot.Plot();
        var palette = new ScottPlot.Palettes.Category10();
        for (var l = 0; l < labels.Length; l++)
        {
            var bars = new List<ScottPlot.Bar>();
            for (var k = 0; k < keys.Length; k++)
            {
                if (values.TryGetValue((keys[k], labels[l]), out var value))
                {
                    bars.Add(new ScottPlot.Bar { Position = (k * (labels.Length + 1)) + l, Value = Math.Log10(value), ValueBase = Math.Log10(floor), FillColor = palette.GetColor(l) });
                }
            }

            var series = plot.Add.Bars(bars);
            series.LegendText = labels[l];
        }

        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(
            keys.Select((k, i) => new ScottPlot.Tick((i * (labels.Length + 1)) + ((labels.Length - 1) / 2.0), k)).ToArray());
        plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericAutomatic
        {
            LabelFormatter = y => Math.Pow(10, y).ToString(y < 0 ? "0.##" : "N0", CultureInfo.InvariantCulture),
            IntegerTicksOnly = true,
        };
        plot.Axes.Left.Label.Text = axis;
        var logs = values.Values.Where(v => v > 0).Select(Math.Log10).DefaultIfEmpty(0).ToArray();
        plot.Axes.SetLimitsY(Math.Max(Math.Log10(floor), Math.Floor(logs.Min()) - 1), Math.Ceiling(logs.Max()) + 0.2);
        plot.Title(title);
        plot.ShowLegend(ScottPlot.Edge.Right);
        plot.SaveSvg(path, Math.Max(640, keys.Length * (labels.Length + 1) * 14), 420);
    }
}

/// <summary>
/// A suite's latency CSV (<c>SUITE-latency.csv</c>: Target, Threads, Records, Workload, Operation, Count, P50Ns, P99Ns,
/// MaxNs), keyed like the report's rows ("A 4t") and labels.
/// </summary>
sealed class Latencies(List<string[]> rows)
{
    /// <summary>The engines in the comparison that are neither a DataStore backend nor a hand-written peer.</summary>
    public static readonly string[] OtherEngines = ["ZoneTree", "Faster"];

    public bool Any => rows.Count > 0;

    public static Latencies Read(string path) =>
        new(File.Exists(path) ? File.ReadLines(path).Skip(1).Select(l => l.Split(',')).Where(f => f.Length >= 9).ToList() : []);

    public bool NotSupported(string key, string label) => rows.Any(r => Key(r) == key && r[0] == label && r[4] == "not supported");

    /// <summary>p99 in microseconds per ("A 4t Update", label).</summary>
    public Dictionary<(string, string), double> P99Microseconds() =>
        Measured().GroupBy(r => (Key(r) + " " + r[4], r[0])).ToDictionary(g => g.Key, g => Number(g.Last()[7]) / 1e3);

    /// <summary>A markdown table: a row per workload, thread count and kind of operation, a column per label, "p50 / p99" cells.</summary>
    public string Table(string[] labels)
    {
        var table = new StringBuilder("### Latency per operation: p50 / p99\n\nOver every invocation of the case, warm-up included; \"not supported\": the target cannot run the workload.\n\n");
        table.Append($"| | {string.Join(" | ", labels)} |\n|---|{string.Concat(labels.Select(_ => "---:|"))}\n");
        foreach (var group in Measured().GroupBy(r => Key(r) + " " + r[4]))
        {
            table.Append($"| {group.Key} |");
            foreach (var label in labels)
            {
                var row = group.LastOrDefault(r => r[0] == label);
                table.Append(row is null ? (rows.Any(r => r[0] == label && group.Key.StartsWith(Key(r) + " ", StringComparison.Ordinal) && r[4] == "not supported") ? " not supported |" : " - |") : $" {Time(row[6])} / {Time(row[7])} |");
            }

            table.Append('\n');
        }

        return table.Append('\n').ToString();
    }

    private IEnumerable<string[]> Measured() => rows.Where(r => r[4] != "not supported").OrderBy(r => int.Parse(r[1], CultureInfo.InvariantCulture)).ThenBy(r => r[3], StringComparer.Ordinal);

    private static string Key(string[] row) => $"{row[3]} {row[1]}t";

    private static double Number(string cell) => double.Parse(cell, CultureInfo.InvariantCulture);

    private static string Time(string nanoseconds)
    {
        var value = Number(nanoseconds);
        return value < 1e3 ? $"{value:0} ns" : value < 1e6 ? (value / 1e3).ToString(value < 1e4 ? "0.0" : "0", CultureInfo.InvariantCulture) + " µs" : (value / 1e6).ToString(value < 1e7 ? "0.0" : "0", CultureInfo.InvariantCulture) + " ms";
    }
}

#:package ScottPlot@5.1.59
#:property PublishAot=false
#:property ManagePackageVersionsCentrally=false

// Turns BenchmarkDotNet's CSV reports into one cross-backend summary (markdown) and one chart per suite (SVG):
//   dotnet run scripts/bench-summary.cs -- RESULTS_DIR OUT_DIR [TITLE]
// RESULTS_DIR holds *-report.csv (BenchmarkDotNet.Artifacts/results). Each suite becomes a table of operations per
// second (1 / Mean: per key, per operation over all threads, or per batch, as the suite's doc says), a row per method
// and thread count, a column per backend or peer, and for each backend with a hand-written peer the ratio
// DataStore / peer (above 1.0: DataStore is faster). OUT_DIR gets summary.md and SUITE.svg.
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
    var keyColumns = new[] { "Method", "Threads" }.Where(rows[0].ContainsKey).ToArray();
    string Label(Dictionary<string, string> row) => labelColumn is null ? suite : row[labelColumn];
    string Key(Dictionary<string, string> row) => string.Join(" ", keyColumns.Select(c => c == "Threads" ? $"{row[c]}t" : row[c]));

    var labels = rows.Select(Label).Distinct().ToArray();
    var keys = rows.Select(Key).Distinct().ToArray();
    var opsPerSecond = rows.Where(r => Csv.Nanoseconds(r["Mean"]) is > 0).ToDictionary(r => (Key(r), Label(r)), r => 1e9 / Csv.Nanoseconds(r["Mean"])!.Value);
    var peered = labels.Where(l => labels.Contains(l + "Peer")).ToArray();

    summary.Append($"## {suite}\n\n![{suite}]({suite}.svg)\n\n{Csv.Environment(report)}| | {string.Join(" | ", labels)}{string.Concat(peered.Select(p => $" | {p} / {p}Peer"))} |\n");
    summary.Append($"|---|{string.Concat(labels.Select(_ => "---:|"))}{string.Concat(peered.Select(_ => "---:|"))}\n");
    foreach (var key in keys)
    {
        summary.Append($"| {key} |");
        foreach (var label in labels)
        {
            summary.Append(opsPerSecond.TryGetValue((key, label), out var ops) ? $" {Csv.Format(ops)} |" : " - |");
        }

        foreach (var label in peered)
        {
            summary.Append(opsPerSecond.TryGetValue((key, label), out var ours) && opsPerSecond.TryGetValue((key, label + "Peer"), out var theirs)
                ? $" {ours / theirs:0.00}x |"
                : " - |");
        }

        summary.Append('\n');
    }

    summary.Append('\n');
    Chart.Save(Path.Combine(args[1], suite + ".svg"), suite, keys, labels, opsPerSecond);
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
    public static void Save(string path, string title, string[] keys, string[] labels, Dictionary<(string, string), double> opsPerSecond)
    {
        var plot = new ScottPlot.Plot();
        var palette = new ScottPlot.Palettes.Category10();
        for (var l = 0; l < labels.Length; l++)
        {
            var bars = new List<ScottPlot.Bar>();
            for (var k = 0; k < keys.Length; k++)
            {
                if (opsPerSecond.TryGetValue((keys[k], labels[l]), out var ops))
                {
                    bars.Add(new ScottPlot.Bar { Position = (k * (labels.Length + 1)) + l, Value = Math.Log10(ops), ValueBase = 0, FillColor = palette.GetColor(l) });
                }
            }

            var series = plot.Add.Bars(bars);
            series.LegendText = labels[l];
        }

        plot.Axes.Bottom.TickGenerator = new ScottPlot.TickGenerators.NumericManual(
            keys.Select((k, i) => new ScottPlot.Tick((i * (labels.Length + 1)) + ((labels.Length - 1) / 2.0), k)).ToArray());
        plot.Axes.Left.TickGenerator = new ScottPlot.TickGenerators.NumericAutomatic
        {
            LabelFormatter = y => Math.Pow(10, y).ToString("N0", CultureInfo.InvariantCulture),
            IntegerTicksOnly = true,
        };
        plot.Axes.Left.Label.Text = "operations per second (log scale)";
        var logs = opsPerSecond.Values.Where(v => v > 0).Select(Math.Log10).DefaultIfEmpty(0).ToArray();
        plot.Axes.SetLimitsY(Math.Max(0, Math.Floor(logs.Min()) - 1), Math.Ceiling(logs.Max()) + 0.2);
        plot.Title(title);
        plot.ShowLegend(ScottPlot.Edge.Right);
        plot.SaveSvg(path, Math.Max(640, keys.Length * (labels.Length + 1) * 14), 420);
    }
}

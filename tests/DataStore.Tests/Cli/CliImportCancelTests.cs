using System.Diagnostics;
using System.Globalization;

namespace DataStore.Tests.Cli;

/// <summary>
/// A signal during a large piped import (issue 20 item 7): a SIGTERM during a 200,000-pair FileSystem import took 21 s to
/// end the tool, which printed nothing until then, because the cancel waited for the 50,000-pair batch in progress.
/// </summary>
public sealed class CliImportCancelTests : IDisposable
{
    private const int Pairs = 200_000;

    /// <summary>How long the tool may take to exit after the signal: the batch in progress (about 250 ms of work), removing the partial store, and a loaded CI machine.</summary>
    private static readonly TimeSpan StopWithin = TimeSpan.FromSeconds(5);

    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task A_sigterm_during_a_200000_pair_filesystem_import_says_cancelling_at_once_and_stops_within_seconds()
    {
        Assert.SkipWhen(OperatingSystem.IsWindows(), "sends the signal with kill(1)");
        CliBackends.CreateStore(_directory.Sub("source"), StoreBackend.Sqlite, MaintenanceStores.Sample(Pairs));
        DatastoreTool.RunOk(_directory.Path, "export", "--store", _directory.Sub("source"), "all.dump");

        var target = _directory.Sub("interrupted");
        using var import = DatastoreTool.Start(_directory.Path, ["import", "--store", target, "--backend", "FileSystem", "-"]);
        var lines = new List<(TimeSpan At, string Text)>();
        var clock = Stopwatch.StartNew();
        import.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } text)
            {
                lock (lines)
                {
                    lines.Add((clock.Elapsed, text));
                }
            }
        };
        import.BeginErrorReadLine();
        // The whole dump goes in, stdin stays open; the copy ends with the tool (a broken pipe then).
        var feeding = Task.Run(async () =>
        {
            await using var dump = File.OpenRead(_directory.Sub("all.dump"));
            await dump.CopyToAsync(import.StandardInput.BaseStream, TestContext.Current.CancellationToken);
            await import.StandardInput.BaseStream.FlushAsync(TestContext.Current.CancellationToken);
        }, TestContext.Current.CancellationToken);

        // Some batches in: the first progress line, then a while of writing pairs.
        Assert.True(SpinWait.SpinUntil(() => Seen(lines, "importing ") is not null || import.HasExited, TimeSpan.FromSeconds(60)), "no progress line within 60 s");
        Thread.Sleep(1500);
        Assert.False(import.HasExited, Text(lines));
        var signalled = clock.Elapsed;
        using (var kill = Process.Start("kill", ["-TERM", import.Id.ToString(CultureInfo.InvariantCulture)]))
        {
            kill.WaitForExit();
        }

        var stopped = import.WaitForExit(StopWithin);
        var took = clock.Elapsed - signalled;
        if (!stopped)
        {
            import.Kill();
        }

        import.WaitForExit();
        await Task.WhenAny(feeding, Task.Delay(TimeSpan.FromSeconds(5), TestContext.Current.CancellationToken));
        TestContext.Current.TestOutputHelper?.WriteLine($"exited {took.TotalSeconds:0.00} s after SIGTERM; 'cancelling' printed {(Seen(lines, "cancelling") - signalled)?.TotalSeconds:0.00} s after it");
        Assert.True(stopped, $"the import did not stop within {StopWithin.TotalSeconds} s of SIGTERM: {Text(lines)}");
        Assert.Equal(130, import.ExitCode);
        Assert.True(Seen(lines, "SIGTERM received, cancelling") - signalled < TimeSpan.FromSeconds(1), $"'cancelling' was not printed within 1 s of the signal: {Text(lines)}");
        Assert.NotNull(Seen(lines, "datastore: cancelled"));
        Assert.False(Directory.Exists(target) && Directory.EnumerateFileSystemEntries(target).Any(), "the cancelled import left a store behind");
    }

    public void Dispose() => _directory.Dispose();

    private static TimeSpan? Seen(List<(TimeSpan At, string Text)> lines, string text)
    {
        lock (lines)
        {
            return lines.FirstOrDefault(l => l.Text.Contains(text, StringComparison.Ordinal)) is { Text: not null } line ? line.At : null;
        }
    }

    private static string Text(List<(TimeSpan At, string Text)> lines)
    {
        lock (lines)
        {
            return string.Join(" | ", lines.Select(l => $"{l.At.TotalSeconds:0.00}s {l.Text}"));
        }
    }
}

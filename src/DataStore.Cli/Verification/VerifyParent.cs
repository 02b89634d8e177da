using System.Diagnostics;
using DataStore.Cli.Commands;
using DataStore.Cli.Json;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Verification;

/// <summary>
/// The parent side of <c>datastore verify</c>: runs the tool again with <see cref="VerifyCommand.ChildOption"/>, shows
/// its progress, prints its report, and turns a crash of the child into a report of a damaged store.
/// </summary>
internal static class VerifyParent
{
    private static readonly TimeSpan GraceAfterCancel = TimeSpan.FromSeconds(5);

    public static async Task<int> RunAsync(CliContext context, bool asJson, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        using var child = Process.Start(SelfProcess.StartInfo([.. context.Arguments, VerifyCommand.ChildOption]))
            ?? throw new InvalidOperationException("the verifying child process did not start.");
        var errors = child.StandardError.ReadToEndAsync(CancellationToken.None);
        var result = new ChildResult();
        await using (cancellationToken.Register(() => Stop(child)).ConfigureAwait(false))
        {
            await ProgressDisplay.RunAsync(context, progress => ReadAsync(child, result, progress)).ConfigureAwait(false);
            await child.WaitForExitAsync(CancellationToken.None).ConfigureAwait(false);
        }

        var childErrors = await errors.ConfigureAwait(false);
        cancellationToken.ThrowIfCancellationRequested();
        if (!result.Ended)
        {
            return Failed(context, result, child.ExitCode, childErrors, asJson);
        }

        return Report(context, result, asJson, clock);
    }

    private static async Task<int> ReadAsync(Process child, ChildResult result, IProgress<StoreProgress>? progress)
    {
        while (await child.StandardOutput.ReadLineAsync(CancellationToken.None).ConfigureAwait(false) is { } line)
        {
            var (kind, fields) = VerifyProtocol.Parse(line);
            switch (kind)
            {
                case VerifyProtocol.Store:
                    (result.Backend, result.Path) = (fields[0], fields[1]);
                    break;
                case VerifyProtocol.Progress:
                    progress?.Report(VerifyProtocol.ParseProgress(fields));
                    break;
                case VerifyProtocol.Digest:
                    result.Digest = VerifyProtocol.ParseDigest(fields);
                    break;
                case VerifyProtocol.Problem:
                    result.Problems.Add(fields[0]);
                    break;
                case VerifyProtocol.End:
                    result.Ended = true;
                    break;
            }
        }

        return 0;
    }

    private static int Report(CliContext context, ChildResult result, bool asJson, Stopwatch clock)
    {
        var digest = result.Digest ?? new StoreDigest(0, 0, "");
        if (asJson)
        {
            var record = new VerifyRecord(result.Backend, result.Path, digest.Pairs, digest.Bytes, digest.Checksum.Length > 0 ? digest.Checksum : null, result.Problems, result.Problems.Count == 0);
            JsonOutput.Write(context, record, CliJsonContext.Default.VerifyRecord);
        }
        else
        {
            WriteLines(context, digest, result.Problems);
        }

        var found = result.Problems.Count switch
        {
            0 => "no problems",
            1 => "1 problem",
            var n => $"{n} problems",
        };
        context.Summary($"verified {result.Store}: {ProgressText.Pairs(digest)} read, {found}, in {ProgressText.Elapsed(clock)}", toStandardError: asJson);
        if (result.Problems.Count == 0)
        {
            return ExitCode.Ok;
        }

        context.Output.Flush();
        throw new CliException(ExitCode.Damaged, $"the {result.Store} is damaged: {found} (listed on stdout).");
    }

    private static void WriteLines(CliContext context, StoreDigest digest, List<string> problems)
    {
        context.WriteLine($"pairs: {digest.Pairs}");
        context.WriteLine($"bytes: {digest.Bytes}");
        context.WriteLine($"checksum: {(digest.Checksum.Length > 0 ? digest.Checksum : "-")}");
        foreach (var problem in problems)
        {
            context.WriteLine($"problem: {problem}");
        }
    }

    /// <summary>
    /// A child that did not finish: its own one-line error when it had one, else a crash report (with <c>--json</c>, also as
    /// the report object on stdout, unhealthy with the crash as its problem, so a script reads a verdict either way).
    /// </summary>
    private static int Failed(CliContext context, ChildResult result, int exitCode, string childErrors, bool asJson)
    {
        var store = result.Store;
        var lines = childErrors.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (exitCode is ExitCode.Usage or ExitCode.StoreError or ExitCode.Cancelled && lines.Length > 0 && lines[0].StartsWith("datastore: ", StringComparison.Ordinal))
        {
            context.Error.Write(childErrors);
            context.Error.Flush();
            return exitCode;
        }

        var message = $"the engine crashed while reading the {store}: {SelfProcess.DescribeExit(exitCode)}; the store is probably damaged";
        if (asJson)
        {
            var digest = result.Digest ?? new StoreDigest(0, 0, "");
            var record = new VerifyRecord(
                NullIfEmpty(result.Backend), NullIfEmpty(result.Path), digest.Pairs, digest.Bytes, null, [.. result.Problems, message], Healthy: false);
            JsonOutput.Write(context, record, CliJsonContext.Default.VerifyRecord);
            context.Output.Flush();
        }

        if (!context.Verbose)
        {
            throw new CliException(ExitCode.Damaged, $"{message} (--verbose shows what the engine printed).");
        }

        throw new CliException(ExitCode.Damaged, lines.Length == 0 ? $"{message}; the engine printed nothing." : $"{message}; the engine printed: {string.Join(" | ", lines)}");
    }

    private static string? NullIfEmpty(string text) => text.Length == 0 ? null : text;

    private static void Stop(Process child)
    {
        try
        {
            child.StandardInput.Close(); // the child cancels when its stdin ends
            _ = Task.Delay(GraceAfterCancel).ContinueWith(_ => Kill(child), TaskScheduler.Default);
        }
        catch (Exception e) when (e is InvalidOperationException or IOException)
        {
        }
    }

    private static void Kill(Process child)
    {
        try
        {
            child.Kill(entireProcessTree: true);
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
        }
    }

    private sealed class ChildResult
    {
        public string Backend { get; set; } = "";

        public string Path { get; set; } = "";

        public string Store => Backend.Length == 0 ? "store" : $"{Backend} store '{Path}'";

        public StoreDigest? Digest { get; set; }

        public List<string> Problems { get; } = [];

        public bool Ended { get; set; }
    }
}

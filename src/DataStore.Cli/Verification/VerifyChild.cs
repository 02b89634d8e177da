using System.Text;

namespace DataStore.Cli.Verification;

/// <summary>
/// The child side of <c>datastore verify</c>: opens the store, verifies it, and writes <see cref="VerifyProtocol"/>
/// lines to stdout. It stops when its stdin closes (the parent cancelled or died).
/// </summary>
internal static class VerifyChild
{
    public static async Task<int> RunAsync(CliContext context, CancellationToken cancellationToken)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        _ = Task.Run(() => WaitForEndOfInput(context.Input, stop), CancellationToken.None);
        var output = new LineWriter(context.Output);
        VerifyReport report;
        try
        {
            using var store = context.OpenStore();
            output.WriteLine(VerifyProtocol.StoreLine(store.Backend, store.Path));
            var progress = new Progress(output);
            report = await store.VerifyAsync(progress, stop.Token).ConfigureAwait(false);
        }
        catch (DataStoreException e) when (e.Cause == StoreFailure.Corrupt)
        {
            output.WriteLine(VerifyProtocol.StoreLine(e.Backend, e.StorePath)); // the store did not open
            report = new VerifyReport(new StoreDigest(0, 0, ""), [e.Message]);
        }

        output.WriteLine(VerifyProtocol.DigestLine(report.Digest));
        foreach (var problem in report.Problems)
        {
            output.WriteLine(VerifyProtocol.ProblemLine(problem));
        }

        output.WriteLine(VerifyProtocol.End);
        return report.IsHealthy ? ExitCode.Ok : ExitCode.Damaged;
    }

    private static void WaitForEndOfInput(Stream input, CancellationTokenSource stop)
    {
        try
        {
            var buffer = new byte[256];
            while (input.Read(buffer) > 0)
            {
            }
        }
        catch (IOException)
        {
        }

        try
        {
            stop.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // the verification finished first
        }
    }

    /// <summary>Writes whole lines to stdout, flushed at once, from any thread.</summary>
    private sealed class LineWriter(Stream output)
    {
        private readonly Lock _lock = new();

        public void WriteLine(string line)
        {
            lock (_lock)
            {
                output.Write(Encoding.UTF8.GetBytes(line + "\n"));
                output.Flush();
            }
        }
    }

    private sealed class Progress(LineWriter output) : IProgress<StoreProgress>
    {
        public void Report(StoreProgress value) => output.WriteLine(VerifyProtocol.ProgressLine(value));
    }
}

using System.CommandLine;

namespace DataStore.Cli;

/// <summary>Turns every failure into one line on stderr and its exit code; the stack trace only with <c>--verbose</c>.</summary>
internal sealed class ErrorReporter(TextWriter stderr, Option<bool> verbose)
{
    /// <summary>Runs <paramref name="action"/> and maps its exceptions to exit codes; a cancellation by <paramref name="cancellationToken"/> is <see cref="ExitCode.Cancelled"/>.</summary>
    public async Task<int> RunAsync(ParseResult parse, Func<Task<int>> action, CancellationToken cancellationToken)
    {
        try
        {
            return await action().ConfigureAwait(false);
        }
        catch (OperationCanceledException e) when (cancellationToken.IsCancellationRequested)
        {
            // The library's own message says what it removed; the runtime's default one says nothing more.
            var detail = e.Message == new OperationCanceledException().Message ? "" : $" {e.Message}";
            Report($"cancelled.{detail}", parse.GetValue(verbose) ? e : null);
            return ExitCode.Cancelled;
        }
        catch (Exception e)
        {
            var code = e switch
            {
                CliException cli => cli.ExitCode,
                ArgumentException => ExitCode.Usage,
                InvalidDataException => ExitCode.Damaged,
                _ => ExitCode.StoreError,
            };
            Report(e.Message, parse.GetValue(verbose) ? e : null);
            return code;
        }
    }

    /// <summary>Reports a command line that did not parse.</summary>
    public int Usage(string message)
    {
        Report($"{message} Run 'datastore --help' for usage.", null);
        return ExitCode.Usage;
    }

    /// <summary>Prints <paramref name="message"/> as one line (and the stack trace of <paramref name="verboseError"/>, if given).</summary>
    public void Report(string message, Exception? verboseError)
    {
        stderr.WriteLine($"datastore: {OneLine(message)}");
        if (verboseError is not null)
        {
            stderr.WriteLine(verboseError);
        }

        stderr.Flush();
    }

    private static string OneLine(string message) =>
        string.Join(' ', message.Split(['\r', '\n'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
}

using Spectre.Console;

namespace DataStore.Cli.Progress;

/// <summary>
/// Runs a long operation with its progress shown on stderr: bars with rate and ETA on a terminal, plain lines
/// (about one a second) when stderr is redirected, nothing with <c>--quiet</c>.
/// </summary>
internal static class ProgressDisplay
{
    public static async Task<T> RunAsync<T>(CliContext context, Func<IProgress<StoreProgress>?, Task<T>> work)
    {
        if (context.Quiet)
        {
            return await work(null).ConfigureAwait(false);
        }

        if (Console.IsErrorRedirected)
        {
            var lines = new ProgressLines(context.Error);
            try
            {
                return await work(lines).ConfigureAwait(false);
            }
            finally
            {
                lines.Complete();
            }
        }

        var console = AnsiConsole.Create(new AnsiConsoleSettings
        {
            Out = new AnsiConsoleOutput(Console.Error),
            Interactive = InteractionSupport.Yes,
        });
        return await console.Progress()
            .AutoClear(false)
            .HideCompleted(false)
            .Columns(
                new TaskDescriptionColumn { Alignment = Justify.Left },
                new ProgressBarColumn { Width = 24 },
                new PercentageColumn(),
                new RateColumn(),
                new RemainingTimeColumn(),
                new SpinnerColumn())
            .StartAsync(async progress =>
            {
                var bars = new ProgressBars(progress);
                try
                {
                    return await work(bars).ConfigureAwait(false);
                }
                finally
                {
                    bars.Complete();
                }
            }).ConfigureAwait(false);
    }
}

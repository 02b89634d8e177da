using System.CommandLine;

namespace DataStore.Cli;

/// <summary>A subcommand and what it does, returning an exit code; long commands watch the token (Ctrl+C).</summary>
internal sealed record CliCommand(Command Command, Func<CliContext, CancellationToken, Task<int>> Run)
{
    /// <summary>A quick command that does not watch for cancellation.</summary>
    public CliCommand(Command command, Func<CliContext, int> run)
        : this(command, (context, _) => Task.FromResult(run(context)))
    {
    }
}

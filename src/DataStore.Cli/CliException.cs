namespace DataStore.Cli;

/// <summary>A failure the tool itself detects, with the exit code it ends with.</summary>
internal sealed class CliException(int exitCode, string message) : Exception(message)
{
    public int ExitCode { get; } = exitCode;

    /// <summary>A command line the tool cannot act on (<see cref="Cli.ExitCode.Usage"/>).</summary>
    public static CliException Usage(string message) => new(Cli.ExitCode.Usage, message);

    /// <summary>A store that cannot be used (<see cref="Cli.ExitCode.StoreError"/>).</summary>
    public static CliException Store(string message) => new(Cli.ExitCode.StoreError, message);
}

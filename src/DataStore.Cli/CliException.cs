namespace DataStore.Cli;

/// <summary>A failure the tool itself detects, with the exit code it ends with.</summary>
internal sealed class CliException(int exitCode, string message, Exception? innerException = null) : Exception(message, innerException)
{
    public int ExitCode { get; } = exitCode;

    /// <summary>A command line the tool cannot act on (<see cref="Cli.ExitCode.Usage"/>).</summary>
    public static CliException Usage(string message) => new(Cli.ExitCode.Usage, message);

    /// <summary>A store that cannot be used (<see cref="Cli.ExitCode.StoreError"/>).</summary>
    public static CliException Store(string message) => new(Cli.ExitCode.StoreError, message);

    /// <summary>Damaged data (<see cref="Cli.ExitCode.Damaged"/>), keeping the library's exception for <c>--verbose</c>.</summary>
    public static CliException Damaged(Exception cause) => new(Cli.ExitCode.Damaged, cause.Message, cause);
}

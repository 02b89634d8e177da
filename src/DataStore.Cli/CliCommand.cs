using System.CommandLine;

namespace DataStore.Cli;

/// <summary>A subcommand and what it does, returning an exit code.</summary>
internal sealed record CliCommand(Command Command, Func<CliContext, int> Run);

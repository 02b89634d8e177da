using System.CommandLine;
using System.CommandLine.Help;
using DataStore.Cli.Commands;

namespace DataStore.Cli;

/// <summary>The <c>datastore</c> root command: parses the command line and runs one subcommand.</summary>
internal static class DatastoreCommand
{
    /// <summary>Runs the tool and returns its exit code (<see cref="ExitCode"/>).</summary>
    public static int Run(string[] args, Stream stdin, Stream stdout, TextWriter stderr)
    {
        var options = new GlobalOptions();
        var errors = new ErrorReporter(stderr, options.Verbose);
        // A named root rather than RootCommand, which would take its name from the assembly (DataStore.Cli).
        var root = new Command("datastore", $"Reads, writes, moves and checks a DataStore store of any backend. {ExitCode.Summary}")
        {
            new HelpOption(), new VersionOption(),
        };
        options.AddTo(root);
        using var signals = new CancelSignals(stderr);
        foreach (var command in new[]
        {
            GetCommand.Create(), PutCommand.Create(), HasCommand.Create(), DeleteCommand.Create(),
            ScanCommand.Create(), CountCommand.Create(), InfoCommand.Create(),
            ExportCommand.Create(), ImportCommand.Create(), MigrateCommand.Create(), BackupCommand.Create(),
            VerifyCommand.Create(), CompactCommand.Create(), WatchCommand.Create(), PackCommand.Create(), ConfigCommand.Create(),
        })
        {
            command.Command.SetAction((parse, _) => errors.RunAsync(parse, async () =>
            {
                var output = new BufferedStream(stdout, 64 * 1024);
                await using (output.ConfigureAwait(false))
                {
                    var code = await command.Run(new CliContext(parse, options, args, stdin, output, stderr), signals.Token).ConfigureAwait(false);
                    await output.FlushAsync(CancellationToken.None).ConfigureAwait(false);
                    return code;
                }
            }, signals.Token));
            root.Add(command.Command);
        }

        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            // An unknown word explains the other errors it causes ("Required command was not provided").
            return errors.Usage(parse.UnmatchedTokens.Count > 0
                ? $"unknown command or argument '{parse.UnmatchedTokens[0]}'."
                : MissingArgument(parse) ?? parse.Errors[0].Message);
        }

        // Signals are CancelSignals' to handle: the command removes its partial output before the process ends.
        return parse.Invoke(new InvocationConfiguration { EnableDefaultExceptionHandler = false, ProcessTerminationTimeout = null });
    }

    /// <summary>"missing argument 'key' for 'datastore get': The key." when a required argument was left out, else null.</summary>
    private static string? MissingArgument(ParseResult parse)
    {
        var command = parse.CommandResult.Command;
        var missing = command.Arguments.FirstOrDefault(a => a.Arity.MinimumNumberOfValues > 0 && (parse.GetResult(a)?.Tokens.Count ?? 0) == 0);
        return missing is null ? null : $"missing argument '{missing.Name}' for 'datastore {command.Name}': {missing.Description}";
    }
}

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
        var root = new Command("datastore", "Reads and writes a DataStore store of any backend. Exit codes: 0 ok, 1 key not found, 2 usage, 3 store error.")
        {
            new HelpOption(), new VersionOption(),
        };
        options.AddTo(root);
        foreach (var command in new[]
        {
            GetCommand.Create(), PutCommand.Create(), HasCommand.Create(), DeleteCommand.Create(),
            ScanCommand.Create(), CountCommand.Create(), InfoCommand.Create(),
        })
        {
            command.Command.SetAction(parse => errors.Run(parse, () =>
            {
                using var output = new BufferedStream(stdout, 64 * 1024);
                var code = command.Run(new CliContext(parse, options, stdin, output));
                output.Flush();
                return code;
            }));
            root.Add(command.Command);
        }

        var parse = root.Parse(args);
        if (parse.Errors.Count > 0)
        {
            // An unknown word explains the other errors it causes ("Required command was not provided").
            return errors.Usage(parse.UnmatchedTokens.Count > 0
                ? $"unknown command or argument '{parse.UnmatchedTokens[0]}'."
                : parse.Errors[0].Message);
        }

        return parse.Invoke(new InvocationConfiguration { EnableDefaultExceptionHandler = false });
    }
}

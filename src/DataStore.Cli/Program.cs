// The `datastore` command-line tool: see DatastoreCommand for the commands and ExitCode for what it returns.
using DataStore.Cli;

return DatastoreCommand.Run(args, Console.OpenStandardInput(), Console.OpenStandardOutput(), Console.Error);

using System.CommandLine;
using System.Diagnostics;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore export [FILE]</c>: every pair, in key order, as a portable dump to a new file or stdout.</summary>
internal static class ExportCommand
{
    public static CliCommand Create()
    {
        var file = new Argument<string?>("file")
        {
            Description = "The dump file to create (it must not exist); '-' or nothing writes the dump to stdout.",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var command = new Command("export", "Write every pair of the store, in key order, as a portable dump (docs/dump-format.md) to a new FILE or to stdout.")
        {
            file,
        };
        return new(command, async (context, cancellationToken) =>
        {
            var path = context.Parse.GetValue(file);
            var toStdout = path is null or "-";
            if (toStdout && !Console.IsOutputRedirected)
            {
                throw CliException.Usage("refusing to write a binary dump to a terminal; give a FILE or redirect stdout (datastore export > store.dump).");
            }

            if (!toStdout)
            {
                Destination.RequireNew(path!, "the dump file");
            }

            using var store = context.OpenStore();
            var clock = Stopwatch.StartNew();
            var digest = toStdout
                ? await ProgressDisplay.RunAsync(context, progress => store.ExportAsync(context.Output, progress, cancellationToken)).ConfigureAwait(false)
                : await DumpFile.CreateAsync(path!, stream => ProgressDisplay.RunAsync(context, progress => store.ExportAsync(stream, progress, cancellationToken))).ConfigureAwait(false);
            var target = toStdout ? "stdout" : $"'{Path.GetFullPath(path!)}'";
            context.Summary(
                $"exported {ProgressText.Pairs(digest)} from {store.Backend} store '{store.Path}' to {target} in {ProgressText.Elapsed(clock)}; checksum {digest.Checksum}",
                toStandardError: toStdout);
            return ExitCode.Ok;
        });
    }
}

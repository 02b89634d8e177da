using System.CommandLine;
using System.Diagnostics;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore import FILE|-</c>: creates a new store (<c>--store</c>, <c>--backend</c>) from a dump.</summary>
internal static class ImportCommand
{
    public static CliCommand Create()
    {
        var file = new Argument<string>("file") { Description = "The dump to read (made by export); '-' reads it from stdin." };
        var keepPartial = new Option<bool>("--keep-partial")
        {
            Description = "When the dump turns out damaged, keep the pairs read before the damage instead of removing the new store.",
        };
        var command = new Command("import", "Create a new store, named by --store PATH and --backend NAME, from a dump; an existing store is never touched.")
        {
            file, keepPartial,
        };
        return new(command, async (context, cancellationToken) =>
        {
            var path = context.Parse.GetRequiredValue(file);
            var options = context.NewStoreOptions();
            var source = OpenSource(context, path, cancellationToken);
            await using (source.ConfigureAwait(false))
            {
                var clock = Stopwatch.StartNew();
                var settings = new ImportOptions { KeepPartial = context.Parse.GetValue(keepPartial) };
                StoreDigest digest;
                try
                {
                    digest = await ProgressDisplay.RunAsync(
                        context, progress => StoreMaintenance.ImportAsync(source, options, settings, progress, cancellationToken)).ConfigureAwait(false);
                }
                catch (DataStoreException e) when (e.Cause == StoreFailure.Corrupt)
                {
                    throw CliException.Damaged(e); // the dump is damaged or truncated
                }

                context.Summary(
                    $"imported {ProgressText.Pairs(digest)} into {options.Backend} store '{options.Path}' in {ProgressText.Elapsed(clock)}; checksum {digest.Checksum}");
                return ExitCode.Ok;
            }
        });
    }

    private static Stream OpenSource(CliContext context, string path, CancellationToken cancellationToken)
    {
        if (path == "-")
        {
            if (!Console.IsInputRedirected)
            {
                throw CliException.Usage("no dump on stdin: give a FILE, or pipe a dump in (datastore import - < store.dump).");
            }

            return new CancellableReadStream(context.Input, cancellationToken);
        }

        if (!File.Exists(path))
        {
            throw CliException.Usage($"the dump file '{path}' does not exist.");
        }

        return new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.SequentialScan);
    }
}

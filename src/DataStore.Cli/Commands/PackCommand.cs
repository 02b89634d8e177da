using System.CommandLine;
using System.Diagnostics;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore pack --to PATH [--from-dump FILE]</c>: builds a read-only Packed store from the store or from a dump.</summary>
internal static class PackCommand
{
    public static CliCommand Create()
    {
        var to = new Option<string>("--to")
        {
            Description = "The Packed store's directory: new, or a Packed store to rebuild (readers keep the old file until they reopen).",
            HelpName = "PATH",
            Required = true,
        };
        var fromDump = new Option<string?>("--from-dump")
        {
            Description = "Read the pairs from this dump (made by export) instead of from the store named by --store.",
            HelpName = "FILE",
        };
        var command = new Command(
            "pack",
            "Build a read-only Packed store (one checksummed, memory-mapped file) at --to from every pair of the store (--store) or of a dump (--from-dump); "
            + "the new file replaces the old one only once it is complete and synced.")
        {
            to, fromDump,
        };
        return new(command, async (context, cancellationToken) =>
        {
            var path = Path.GetFullPath(context.Parse.GetRequiredValue(to));
            var dump = context.Parse.GetValue(fromDump);
            var clock = Stopwatch.StartNew();
            string from;
            long pairs;
            try
            {
                if (dump is not null)
                {
                    if (!File.Exists(dump))
                    {
                        throw CliException.Usage($"the dump file '{dump}' does not exist.");
                    }

                    from = $"dump '{Path.GetFullPath(dump)}'";
                    var source = new FileStream(dump, FileMode.Open, FileAccess.Read, FileShare.Read, 1 << 16, FileOptions.SequentialScan);
                    await using (source.ConfigureAwait(false))
                    {
                        pairs = await ProgressDisplay.RunAsync(
                            context, progress => Task.Run(() => PackedStore.BuildFromDump(source, path, progress, cancellationToken), cancellationToken)).ConfigureAwait(false);
                    }
                }
                else
                {
                    using var store = context.OpenStore();
                    from = $"{store.Backend} store '{store.Path}'";
                    pairs = await ProgressDisplay.RunAsync(
                        context, progress => Task.Run(() => PackedStore.Build(store, path, progress, cancellationToken), cancellationToken)).ConfigureAwait(false);
                }
            }
            catch (DataStoreException e) when (e.Cause == StoreFailure.Corrupt)
            {
                throw CliException.Damaged(e); // the dump or the source store is damaged
            }

            var size = new FileInfo(Path.Combine(path, "store.packed")).Length;
            context.Summary($"packed {pairs:N0} pairs from {from} into Packed store '{path}' ({StoreStatistics.Readable(size)}) in {ProgressText.Elapsed(clock)}");
            return ExitCode.Ok;
        });
    }
}

using System.CommandLine;
using System.Diagnostics;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore compact</c>: gives free space back to the file system and prints how much.</summary>
internal static class CompactCommand
{
    public static CliCommand Create()
    {
        var command = new Command("compact", "Give the store's free space back to the file system (SQLite VACUUM, an LMDB compacting copy, RocksDB compaction) and print how many bytes that freed.");
        return new(command, async (context, cancellationToken) =>
        {
            using var store = context.OpenStore();
            var clock = Stopwatch.StartNew();
            var freed = await ProgressDisplay.RunAsync(context, progress => store.CompactAsync(progress, cancellationToken)).ConfigureAwait(false);
            var left = StoreStatistics.SizeOnDisk(store.Path);
            context.Summary(
                $"compacted {store.Backend} store '{store.Path}': {ProgressText.Count(freed)} bytes ({StoreStatistics.Readable(freed)}) given back, "
                + $"{StoreStatistics.Readable(left)} on disk now, in {ProgressText.Elapsed(clock)}");
            return ExitCode.Ok;
        });
    }
}

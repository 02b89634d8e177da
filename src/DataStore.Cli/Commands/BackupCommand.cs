using System.CommandLine;
using System.Diagnostics;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore backup DEST</c>: a consistent online copy of the store that opens as a normal store.</summary>
internal static class BackupCommand
{
    public static CliCommand Create()
    {
        var destination = new Argument<string>("dest") { Description = "The backup's directory (it must not hold anything yet)." };
        var command = new Command(
            "backup",
            "Copy the store into a new directory DEST with the engine's online copy, while other processes keep writing; the copy opens as a normal store.")
        {
            destination,
        };
        return new(command, async (context, cancellationToken) =>
        {
            var path = Path.GetFullPath(context.Parse.GetRequiredValue(destination));
            Destination.RequireNew(path, "the backup destination");
            using var store = context.OpenStore();
            var clock = Stopwatch.StartNew();
            var result = await ProgressDisplay.RunAsync(context, progress => store.BackupAsync(path, progress, cancellationToken)).ConfigureAwait(false);
            context.Summary(
                $"backed up {store.Backend} store '{store.Path}' to '{result.Path}' ({ProgressText.Count(result.Bytes)} bytes, {StoreStatistics.Readable(result.Bytes)}) in {ProgressText.Elapsed(clock)}");
            return ExitCode.Ok;
        });
    }
}

using System.CommandLine;
using System.Diagnostics;
using DataStore.Cli.Progress;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore migrate --to PATH --to-backend NAME</c>: copies the store to a new store of any backend and checks the copy.</summary>
internal static class MigrateCommand
{
    public static CliCommand Create()
    {
        var to = new Option<string>("--to")
        {
            Description = "The new store's directory (it must not hold anything yet).",
            HelpName = "PATH",
            Required = true,
        };
        var toBackend = new Option<StoreBackend?>("--to-backend")
        {
            Description = "The new store's backend (Sqlite, RocksDb, Lmdb, FileSystem, LiteDb).",
            HelpName = "NAME",
            Required = true,
            CustomParser = result => GlobalOptions.ParseBackend(result, "--to-backend"),
        };
        var changeFeed = new Option<string?>("--change-feed")
        {
            Description = "Create the new store with the change feed on or off (on|off; default: off), as DataStoreOptions.ChangeFeed does.",
            HelpName = "on|off",
        };
        var command = new Command(
            "migrate",
            "Copy every pair of the store (--store, as for every command) into a new store at --to on --to-backend, then read the copy back and compare count and checksum; "
            + "the copy is removed when they differ.")
        {
            to, toBackend, changeFeed,
        };
        return new(command, async (context, cancellationToken) =>
        {
            var path = Path.GetFullPath(context.Parse.GetRequiredValue(to));
            Destination.RequireNew(path, "the destination store");
            using var store = context.OpenStore();
            var destination = new DataStoreOptions
            {
                Path = path,
                Backend = context.Parse.GetValue(toBackend),
                Durability = store.Durability,
                CreateIfMissing = true,
                ChangeFeed = context.Parse.GetValue(changeFeed) switch
                {
                    null or "off" => null,
                    "on" => true,
                    var other => throw CliException.Usage($"--change-feed takes on or off, not '{other}'."),
                },
            };
            context.ApplyTimeout(destination);
            var clock = Stopwatch.StartNew();
            StoreDigest digest;
            try
            {
                digest = await ProgressDisplay.RunAsync(context, progress => store.MigrateAsync(destination, progress, cancellationToken)).ConfigureAwait(false);
            }
            catch (DataStoreException e) when (e.Cause == StoreFailure.Corrupt)
            {
                throw CliException.Damaged(e); // the copy read back differently, or the source could not be read whole
            }

            context.Summary(
                $"migrated {ProgressText.Pairs(digest)} from {store.Backend} store '{store.Path}' to {destination.Backend} store '{path}' in {ProgressText.Elapsed(clock)}; "
                + $"both have checksum {digest.Checksum}");
            return ExitCode.Ok;
        });
    }
}

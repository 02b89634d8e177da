using System.CommandLine;
using System.Globalization;
using DataStore.Cli.Json;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore watch [--prefix P] [--from N]</c>: prints each commit of any process as it happens, until Ctrl+C.</summary>
internal static class WatchCommand
{
    public static CliCommand Create()
    {
        var prefix = new Option<string?>("--prefix", "-p") { Description = "Watch only keys that start with this prefix (default: every key).", HelpName = "PREFIX" };
        var from = new Option<long?>("--from") { Description = "Resume after this sequence number (default: the next commit).", HelpName = "N", CustomParser = r => WholeNumber.Parse(r, "--from") };
        var json = JsonOutput.CreateOption("each change (sequence, kind, key, end)");
        var command = new Command("watch",
            "Print every commit made to the store by any process, one line per change: SEQUENCE<TAB>put|delete<TAB>KEY, or " +
            "SEQUENCE<TAB>delete-range<TAB>START<TAB>END; SEQUENCE<TAB>resynchronize when commits were missed (re-read the prefix); " +
            "with --json, one object per change ({\"sequence\":N,\"kind\":\"put\",\"key\":K}, \"end\" for a range). " +
            "The store must have been created with the change feed on. Runs until Ctrl+C.")
        {
            prefix, from, json,
        };
        return new(command, async (context, cancellationToken) =>
        {
            var prefixBytes = context.Decode(context.Parse.GetValue(prefix) ?? "", "the prefix");
            var after = context.Parse.GetValue(from);
            var asJson = context.Parse.GetValue(json);
            using var store = context.OpenStore();
            try
            {
                await foreach (var change in store.Watch(prefixBytes, after, cancellationToken).ConfigureAwait(false))
                {
                    if (asJson)
                    {
                        PrintJson(context, change);
                    }
                    else
                    {
                        Print(context, change);
                    }

                    await context.Output.FlushAsync(cancellationToken).ConfigureAwait(false);
                }
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Ctrl+C ends the watch; what was printed stands.
            }
            catch (Exception e) when (e is NotSupportedException or InvalidOperationException)
            {
                throw CliException.Usage(e.Message);
            }

            return ExitCode.Ok;
        });
    }

    private static void Print(CliContext context, StoreChange change)
    {
        var sequence = change.Sequence.ToString(CultureInfo.InvariantCulture);
        if (change.Kind == StoreChangeKind.Resynchronize)
        {
            context.WriteLine($"{sequence}\tresynchronize");
            return;
        }

        foreach (var key in change.Changes)
        {
            context.Write(System.Text.Encoding.UTF8.GetBytes($"{sequence}\t{Name(key.Kind)}\t"));
            context.WriteBytes(key.Key);
            if (key.Kind == KeyChangeKind.DeleteRange)
            {
                context.Write("\t"u8);
                context.WriteBytes(key.End);
            }

            context.Write("\n"u8);
        }
    }

    private static void PrintJson(CliContext context, StoreChange change)
    {
        if (change.Kind == StoreChangeKind.Resynchronize)
        {
            JsonOutput.Write(context, new ChangeLine(change.Sequence, "resynchronize", null, null), CliJsonContext.Default.ChangeLine);
            return;
        }

        foreach (var key in change.Changes)
        {
            var end = key.Kind == KeyChangeKind.DeleteRange ? JsonOutput.Text(context, key.End, key.Key, "range end") : null;
            JsonOutput.Write(context, new ChangeLine(change.Sequence, Name(key.Kind), JsonOutput.Text(context, key.Key, key.Key, "key"), end), CliJsonContext.Default.ChangeLine);
        }
    }

    private static string Name(KeyChangeKind kind) => kind switch
    {
        KeyChangeKind.Put => "put",
        KeyChangeKind.Delete => "delete",
        _ => "delete-range",
    };
}

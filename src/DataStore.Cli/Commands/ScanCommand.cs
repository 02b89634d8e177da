using System.CommandLine;
using DataStore.Cli.Json;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore scan [PREFIX]</c> or <c>datastore scan --from A --to B</c>: pairs in ascending key order.</summary>
internal static class ScanCommand
{
    private static readonly byte[] Tab = "\t"u8.ToArray();
    private static readonly byte[] NewLine = "\n"u8.ToArray();

    public static CliCommand Create()
    {
        var prefix = new Argument<string?>("prefix")
        {
            Description = "Print only keys that start with this prefix (default: every key).",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var from = new Option<string?>("--from") { Description = "Range scan: the first key (inclusive).", HelpName = "KEY" };
        var to = new Option<string?>("--to") { Description = "Range scan: the end key (exclusive).", HelpName = "KEY" };
        var keysOnly = new Option<bool>("--keys-only", "-k") { Description = "Print keys only; values are not read." };
        var limit = new Option<long?>("--limit", "-n") { Description = "Print at most this many pairs.", HelpName = "N", CustomParser = r => WholeNumber.Parse(r, "--limit") };
        var json = JsonOutput.CreateOption("each pair");
        var command = new Command("scan", "Print pairs in ascending key order, one per line: KEY<TAB>VALUE (or KEY with --keys-only).")
        {
            prefix, from, to, keysOnly, limit, json,
        };
        return new(command, context =>
        {
            var prefixText = context.Parse.GetValue(prefix);
            var fromText = context.Parse.GetValue(from);
            var toText = context.Parse.GetValue(to);
            if (prefixText is not null && (fromText is not null || toText is not null))
            {
                throw CliException.Usage("scan takes a prefix or --from/--to, not both.");
            }

            var isRange = fromText is not null || toText is not null;
            var start = context.Decode(fromText ?? "", "--from");
            var end = context.Decode(toText ?? "", "--to");
            var prefixBytes = context.Decode(prefixText ?? "", "the prefix");
            var onlyKeys = context.Parse.GetValue(keysOnly);
            var left = context.Parse.GetValue(limit) ?? long.MaxValue;
            var asJson = context.Parse.GetValue(json);
            using var store = context.OpenStore();
            using var cursor = isRange ? store.ScanRange(start, end, onlyKeys) : store.ScanPrefix(prefixBytes, onlyKeys);
            for (; left > 0 && cursor.MoveNext(); left--)
            {
                if (asJson)
                {
                    var value = onlyKeys ? null : JsonOutput.Text(context, cursor.Value, cursor.Key, "value");
                    JsonOutput.Write(context, new PairRecord(JsonOutput.Text(context, cursor.Key, cursor.Key, "key"), value), CliJsonContext.Default.PairRecord);
                    continue;
                }

                context.WriteBytes(cursor.Key);
                if (!onlyKeys)
                {
                    context.Write(Tab);
                    context.WriteBytes(cursor.Value);
                }

                context.Write(NewLine);
            }

            return ExitCode.Ok;
        });
    }
}

using System.CommandLine;
using DataStore.Cli.Json;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore count [PREFIX]</c>: how many keys the store (or a prefix of it) holds.</summary>
internal static class CountCommand
{
    public static CliCommand Create()
    {
        var prefix = new Argument<string?>("prefix")
        {
            Description = "Count only keys that start with this prefix (default: every key).",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var json = JsonOutput.CreateOption("the count");
        var command = new Command("count", "Print how many keys the store holds, or how many start with PREFIX.") { prefix, json };
        return new(command, context =>
        {
            var prefixText = context.Parse.GetValue(prefix) ?? "";
            var prefixBytes = context.Decode(prefixText, "the prefix");
            using var store = context.OpenStore();
            var count = StatusDisplay.While("Counting keys", () => store.CountKeys(prefixBytes));
            if (context.Parse.GetValue(json))
            {
                JsonOutput.Write(context, new CountRecord(prefixText, count), CliJsonContext.Default.CountRecord);
            }
            else
            {
                context.WriteLine(count.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }

            return ExitCode.Ok;
        });
    }
}

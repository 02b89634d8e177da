using System.CommandLine;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore has KEY</c>: prints true or false; exit code 1 when absent.</summary>
internal static class HasCommand
{
    public static CliCommand Create()
    {
        var key = new Argument<string>("key") { Description = "The key." };
        var command = new Command("has", "Print true when the key is present (exit code 0), false when it is absent (exit code 1).") { key };
        return new(command, context =>
        {
            var keyBytes = context.Decode(context.Parse.GetRequiredValue(key), "the key");
            using var store = context.OpenStore();
            var present = store.HaveKey(keyBytes);
            context.WriteLine(present ? "true" : "false");
            return present ? ExitCode.Ok : ExitCode.NotFound;
        });
    }
}

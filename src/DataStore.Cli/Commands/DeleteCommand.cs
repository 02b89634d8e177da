using System.CommandLine;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore delete KEY</c> and <c>datastore delete --prefix PREFIX</c>.</summary>
internal static class DeleteCommand
{
    public static CliCommand Create()
    {
        var key = new Argument<string>("key") { Description = "The key, or with --prefix the prefix." };
        var prefix = new Option<bool>("--prefix", "-p")
        {
            Description = "Remove every key that starts with KEY, atomically, and print how many were removed.",
        };
        var command = new Command("delete", "Remove a key (no error when it is absent), or with --prefix a whole group of keys.") { key, prefix };
        return new(command, context =>
        {
            var keyBytes = context.Decode(context.Parse.GetRequiredValue(key), context.Parse.GetValue(prefix) ? "the prefix" : "the key");
            using var store = context.OpenStore();
            if (context.Parse.GetValue(prefix))
            {
                var removed = StatusDisplay.While("Deleting", () => store.DeletePrefix(keyBytes));
                context.WriteLine(removed.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
            else
            {
                store.Delete(keyBytes);
            }

            return ExitCode.Ok;
        });
    }
}

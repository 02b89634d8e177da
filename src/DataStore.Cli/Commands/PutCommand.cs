using System.CommandLine;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore put KEY [VALUE]</c>: the value from the argument, a file, or stdin.</summary>
internal static class PutCommand
{
    public static CliCommand Create()
    {
        var key = new Argument<string>("key") { Description = "The key." };
        var value = new Argument<string?>("value")
        {
            Description = "The value, in the chosen format. Without it (and without --file) the value is read raw from stdin.",
            Arity = ArgumentArity.ZeroOrOne,
        };
        var file = new Option<string?>("--file", "-f")
        {
            Description = "Read the value's raw bytes from this file ('-' for stdin).",
            HelpName = "PATH",
        };
        var command = new Command("put", "Insert or overwrite a key. With --backend, creates the store if there is none.") { key, value, file };
        return new(command, context =>
        {
            var keyBytes = context.Decode(context.Parse.GetRequiredValue(key), "the key");
            var valueBytes = ReadValue(context, context.Parse.GetValue(value), context.Parse.GetValue(file));
            using var store = context.OpenStore(forWriting: true);
            store.Put(keyBytes, valueBytes);
            return ExitCode.Ok;
        });
    }

    private static byte[] ReadValue(CliContext context, string? text, string? file)
    {
        if (text is not null && file is not null)
        {
            throw CliException.Usage("give the value as an argument or with --file, not both.");
        }

        if (text is not null)
        {
            return context.Decode(text, "the value");
        }

        if (file is null or "-")
        {
            if (file is null && !Console.IsInputRedirected)
            {
                throw CliException.Usage("no value: give it as an argument, with --file PATH, or on stdin.");
            }

            using var buffer = new MemoryStream();
            context.Input.CopyTo(buffer);
            return buffer.ToArray();
        }

        if (!File.Exists(file))
        {
            throw CliException.Usage($"the value file '{file}' does not exist.");
        }

        return File.ReadAllBytes(file);
    }
}

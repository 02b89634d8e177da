using System.Buffers;
using System.CommandLine;
using DataStore.Cli.Json;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore get KEY</c>: writes the value to stdout, raw (or as hex or base64 text).</summary>
internal static class GetCommand
{
    public static CliCommand Create()
    {
        var key = new Argument<string>("key") { Description = "The key." };
        var json = JsonOutput.CreateOption("the pair");
        var command = new Command("get", "Print a key's value to stdout: raw bytes, or a line of hex or base64 with --hex or --base64. Exit code 1 when the key is absent.") { key, json };
        return new(command, context =>
        {
            var text = context.Parse.GetRequiredValue(key);
            var keyBytes = context.Decode(text, "the key");
            using var store = context.OpenStore();
            var value = new ArrayBufferWriter<byte>();
            if (!store.Get(keyBytes, value))
            {
                throw new CliException(ExitCode.NotFound, $"key '{text}' not found.");
            }

            if (context.Parse.GetValue(json))
            {
                JsonOutput.Write(context, new PairRecord(text, JsonOutput.Text(context, value.WrittenSpan, keyBytes, "value")), CliJsonContext.Default.PairRecord);
                return ExitCode.Ok;
            }

            context.WriteBytes(value.WrittenSpan);
            if (context.Format != ByteFormat.Utf8)
            {
                context.WriteLine("");
            }

            return ExitCode.Ok;
        });
    }
}

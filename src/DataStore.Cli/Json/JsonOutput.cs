using System.CommandLine;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace DataStore.Cli.Json;

/// <summary>The <c>--json</c> option and the writer of its records: one JSON object per line on stdout.</summary>
internal static class JsonOutput
{
    // Output for scripts and terminals, never embedded in HTML: quotes and non-ASCII text stay readable.
    private static readonly JsonWriterOptions WriterOptions = new() { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>A new <c>--json</c> option for one command.</summary>
    public static Option<bool> CreateOption(string what) => new("--json")
    {
        Description = $"Print {what} as JSON, one object per line; keys and values are strings in the chosen format (UTF-8 text, --hex or --base64).",
    };

    /// <summary>Writes <paramref name="record"/> as one line of JSON.</summary>
    public static void Write<T>(CliContext context, T record, JsonTypeInfo<T> type)
    {
        using (var writer = new Utf8JsonWriter(context.Output, WriterOptions))
        {
            JsonSerializer.Serialize(writer, record, type);
        }

        context.Write("\n"u8);
    }

    /// <summary>
    /// <paramref name="bytes"/> as a JSON string in the chosen format; with the UTF-8 format, bytes that are not valid
    /// UTF-8 are an error naming <paramref name="key"/>, never replacement characters.
    /// </summary>
    public static string Text(CliContext context, ReadOnlySpan<byte> bytes, ReadOnlySpan<byte> key, string what)
    {
        if (context.Format != ByteFormat.Utf8)
        {
            return ByteText.Encode(bytes, context.Format);
        }

        try
        {
            return StrictUtf8.GetString(bytes);
        }
        catch (DecoderFallbackException)
        {
            throw CliException.Usage($"the {what} of key {Convert.ToHexStringLower(key)} (hex) is not valid UTF-8, so JSON cannot carry it as text; add --hex or --base64.");
        }
    }
}

using System.Text;

namespace DataStore.Cli;

/// <summary>Converts between command-line text and bytes in a <see cref="ByteFormat"/>.</summary>
internal static class ByteText
{
    private static readonly UTF8Encoding StrictUtf8 = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>The bytes <paramref name="text"/> stands for; <paramref name="what"/> names the argument in the error.</summary>
    /// <exception cref="CliException">The text is not valid in <paramref name="format"/>.</exception>
    public static byte[] Decode(string text, ByteFormat format, string what)
    {
        try
        {
            return format switch
            {
                ByteFormat.Hex => Convert.FromHexString(text),
                ByteFormat.Base64 => Convert.FromBase64String(text),
                _ => StrictUtf8.GetBytes(text),
            };
        }
        catch (FormatException)
        {
            var name = format == ByteFormat.Hex ? "hex (an even number of digits 0-9, a-f)" : "base64";
            throw CliException.Usage($"{what} '{text}' is not valid {name}.");
        }
        catch (EncoderFallbackException)
        {
            throw CliException.Usage($"{what} is not valid Unicode text; pass it with --hex or --base64.");
        }
    }

    /// <summary><paramref name="bytes"/> as text in <paramref name="format"/>; UTF-8 text is written as it is.</summary>
    public static string Encode(ReadOnlySpan<byte> bytes, ByteFormat format) => format switch
    {
        ByteFormat.Hex => Convert.ToHexStringLower(bytes),
        ByteFormat.Base64 => Convert.ToBase64String(bytes),
        _ => Encoding.UTF8.GetString(bytes),
    };
}

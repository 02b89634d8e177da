using System.CommandLine;
using System.Text;

namespace DataStore.Cli;

/// <summary>What one command needs: its parsed options, the standard streams, and the store it works on.</summary>
internal sealed class CliContext(ParseResult parse, GlobalOptions options, Stream stdin, Stream stdout)
{
    public ParseResult Parse { get; } = parse;

    public Stream Input { get; } = stdin;

    public Stream Output { get; } = stdout;

    /// <summary>The format of keys and values on the command line and in the output.</summary>
    public ByteFormat Format { get; } = (parse.GetValue(options.Hex), parse.GetValue(options.Base64)) switch
    {
        (true, true) => throw CliException.Usage("--hex and --base64 cannot be used together."),
        (true, false) => ByteFormat.Hex,
        (false, true) => ByteFormat.Base64,
        _ => ByteFormat.Utf8,
    };

    /// <summary>Opens the store the options name; only a write may create one, and only with a backend named.</summary>
    public IKeyValueStore OpenStore(bool forWriting = false)
    {
        var resolved = StoreLocator.Resolve(Parse.GetValue(options.Store), Parse.GetValue(options.Backend), Parse.GetValue(options.Config), forWriting);
        if (Parse.GetValue(options.Timeout) is { } seconds)
        {
            resolved.Timeout = TimeSpan.FromSeconds(seconds);
        }

        return KeyValueStore.Open(resolved);
    }

    /// <summary>The bytes of a key or value argument in the chosen format.</summary>
    public byte[] Decode(string text, string what) => ByteText.Decode(text, Format, what);

    /// <summary>Writes one line of UTF-8 text.</summary>
    public void WriteLine(string text) => Write(Encoding.UTF8.GetBytes(text + "\n"));

    /// <summary>Writes bytes as the chosen format prints them: raw for UTF-8, else encoded text.</summary>
    public void WriteBytes(ReadOnlySpan<byte> bytes)
    {
        if (Format == ByteFormat.Utf8)
        {
            Write(bytes);
        }
        else
        {
            Write(Encoding.UTF8.GetBytes(ByteText.Encode(bytes, Format)));
        }
    }

    public void Write(ReadOnlySpan<byte> bytes) => Output.Write(bytes);
}

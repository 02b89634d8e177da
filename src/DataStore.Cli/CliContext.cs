using System.CommandLine;
using System.Text;

namespace DataStore.Cli;

/// <summary>What one command needs: its parsed options, the standard streams, and the store it works on.</summary>
internal sealed class CliContext(ParseResult parse, GlobalOptions options, IReadOnlyList<string> arguments, Stream stdin, Stream stdout, TextWriter stderr)
{
    public ParseResult Parse { get; } = parse;

    /// <summary>The command line as given, for a command that runs the tool again in a child process.</summary>
    public IReadOnlyList<string> Arguments { get; } = arguments;

    /// <summary>Standard error, for progress, summaries that must not mix with a dump on stdout, and errors.</summary>
    public TextWriter Error { get; } = stderr;

    /// <summary>True with <c>--quiet</c>: no progress display.</summary>
    public bool Quiet => Parse.GetValue(options.Quiet);

    /// <summary>True with <c>--verbose</c>.</summary>
    public bool Verbose => Parse.GetValue(options.Verbose);

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
        ApplyTimeout(resolved);
        return KeyValueStore.Open(resolved);
    }

    /// <summary>The options naming an existing store, without opening it (config changes a store no process may have open).</summary>
    public DataStoreOptions ExistingStoreOptions() =>
        StoreLocator.Resolve(Parse.GetValue(options.Store), Parse.GetValue(options.Backend), Parse.GetValue(options.Config), mayCreate: false);

    /// <summary><c>--timeout</c>, when given.</summary>
    public TimeSpan? Timeout => Parse.GetValue(options.Timeout) is { } seconds ? TimeSpan.FromSeconds(seconds) : null;

    /// <summary>The options for a new store (import): <c>--store</c> and <c>--backend</c> (or configuration) must name it, and nothing may be there yet.</summary>
    public DataStoreOptions NewStoreOptions()
    {
        var resolved = StoreLocator.ResolveNew(Parse.GetValue(options.Store), Parse.GetValue(options.Backend), Parse.GetValue(options.Config));
        ApplyTimeout(resolved);
        return resolved;
    }

    /// <summary>Sets <c>--timeout</c>, when given, on <paramref name="target"/>.</summary>
    public void ApplyTimeout(DataStoreOptions target)
    {
        if (Parse.GetValue(options.Timeout) is { } seconds)
        {
            target.Timeout = TimeSpan.FromSeconds(seconds);
        }
    }

    /// <summary>Writes a one-line summary to stdout, or to stderr when stdout carries data (a dump).</summary>
    public void Summary(string text, bool toStandardError = false)
    {
        if (toStandardError)
        {
            Error.WriteLine(text);
            Error.Flush();
        }
        else
        {
            WriteLine(text);
        }
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

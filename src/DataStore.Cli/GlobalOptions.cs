using System.CommandLine;

namespace DataStore.Cli;

/// <summary>The options every command takes: which store, how bytes are written, how errors are reported.</summary>
internal sealed class GlobalOptions
{
    public Option<string?> Store { get; } = new("--store", "-s")
    {
        Description = "The store's directory; its datastore.json names the backend. Default: DataStore:Path from appsettings.json or DATASTORE__PATH.",
        HelpName = "PATH",
        Recursive = true,
    };

    public Option<StoreBackend?> Backend { get; } = new("--backend", "-b")
    {
        Description = "The backend (Sqlite, RocksDb, Lmdb, FileSystem, LiteDb): required to create a store with put; must match an existing store.",
        HelpName = "NAME",
        Recursive = true,
        CustomParser = ParseBackend,
    };

    public Option<string?> Config { get; } = new("--config")
    {
        Description = "An application's appsettings.json whose DataStore section names the store (read after ./appsettings.json, before DATASTORE__ variables).",
        HelpName = "FILE",
        Recursive = true,
    };

    public Option<double?> Timeout { get; } = new("--timeout")
    {
        Description = "Seconds to wait for another process that holds the store before failing (default: DataStore:Timeout, 30).",
        HelpName = "SECONDS",
        Recursive = true,
        CustomParser = ParseSeconds,
    };

    public Option<bool> Hex { get; } = new("--hex")
    {
        Description = "Keys and values on the command line and in the output are hexadecimal.",
        Recursive = true,
    };

    public Option<bool> Base64 { get; } = new("--base64")
    {
        Description = "Keys and values on the command line and in the output are base64.",
        Recursive = true,
    };

    public Option<bool> Verbose { get; } = new("--verbose", "-v")
    {
        Description = "Print the stack trace of an error.",
        Recursive = true,
    };

    public Option<bool> Quiet { get; } = new("--quiet", "-q")
    {
        Description = "Show no progress (export, import, migrate, backup, verify, compact); summaries and errors still print.",
        Recursive = true,
    };

    private static readonly string Persistent = string.Join(", ", Enum.GetNames<StoreBackend>().Where(n => n != nameof(StoreBackend.InMemory)));

    /// <summary>Parses a persistent backend name for <paramref name="result"/>'s option, or adds an error naming the choices.</summary>
    public static StoreBackend? ParseBackend(System.CommandLine.Parsing.ArgumentResult result) => ParseBackend(result, "--backend");

    /// <summary>As <see cref="ParseBackend(System.CommandLine.Parsing.ArgumentResult)"/>, naming the option <paramref name="option"/> in the error.</summary>
    public static StoreBackend? ParseBackend(System.CommandLine.Parsing.ArgumentResult result, string option)
    {
        var text = result.Tokens[^1].Value;
        if (Enum.TryParse<StoreBackend>(text, ignoreCase: true, out var backend) && Enum.IsDefined(backend)
            && !char.IsAsciiDigit(text[0]) && backend != StoreBackend.InMemory)
        {
            return backend;
        }

        result.AddError($"{option} '{text}' is not a persistent backend; use one of {Persistent}.");
        return null;
    }

    private static double? ParseSeconds(System.CommandLine.Parsing.ArgumentResult result)
    {
        var text = result.Tokens[^1].Value;
        if (double.TryParse(text, System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var seconds)
            && seconds is >= 0 and <= 86_400)
        {
            return seconds;
        }

        result.AddError($"--timeout '{text}' is not a number of seconds from 0 to 86400.");
        return null;
    }

    /// <summary>Adds the options to <paramref name="root"/>; they apply to every subcommand.</summary>
    public void AddTo(Command root)
    {
        root.Add(Store);
        root.Add(Backend);
        root.Add(Config);
        root.Add(Timeout);
        root.Add(Hex);
        root.Add(Base64);
        root.Add(Verbose);
        root.Add(Quiet);
    }
}

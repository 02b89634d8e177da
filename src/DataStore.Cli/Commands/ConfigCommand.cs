using System.CommandLine;
using System.Globalization;
using DataStore.Cli.Json;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore config [--change-feed on|off] [--feed-retention N]</c>: prints the store-wide settings, or changes them with the store to itself.</summary>
internal static class ConfigCommand
{
    public static CliCommand Create()
    {
        var changeFeed = new Option<string?>("--change-feed")
        {
            Description = "Turn the change feed on or off (on|off). Needs the store to itself: refused while another process has it open.",
            HelpName = "on|off",
        };
        var retention = new Option<long?>("--feed-retention")
        {
            Description = "How many of the latest commits the change log keeps (with the feed on).",
            HelpName = "N",
        };
        var json = JsonOutput.CreateOption("the settings");
        var command = new Command("config",
            "Print the store's settings (backend, format version, change feed and its retention), or change them: --change-feed on|off, --feed-retention N. "
            + "A change needs the store to itself and is refused at once, changing nothing, while another process (the app, a watch) has it open.")
        {
            changeFeed, retention, json,
        };
        return new(command, context =>
        {
            var enabled = context.Parse.GetValue(changeFeed) switch
            {
                null => (bool?)null,
                "on" => true,
                "off" => false,
                var other => throw CliException.Usage($"--change-feed takes on or off, not '{other}'."),
            };
            var kept = context.Parse.GetValue(retention) switch
            {
                null => (int?)null,
                >= 1 and <= int.MaxValue and var n => (int)n,
                var n => throw CliException.Usage($"--feed-retention must be a whole number from 1 to {int.MaxValue}, not {n}."),
            };
            var path = context.ExistingStoreOptions().Path;
            var settings = enabled is null && kept is null
                ? StoreConfiguration.ReadChangeFeed(path)
                : StoreConfiguration.ConfigureChangeFeed(path, enabled, kept, context.Timeout);
            Print(context, settings, context.Parse.GetValue(json));
            return ExitCode.Ok;
        });
    }

    private static void Print(CliContext context, ChangeFeedConfiguration settings, bool json)
    {
        if (json)
        {
            JsonOutput.Write(context, new ConfigRecord(settings.Path, settings.Backend.ToString(), settings.FormatVersion, settings.Enabled,
                settings.Enabled ? settings.Retention : null, settings.Changed), CliJsonContext.Default.ConfigRecord);
            return;
        }

        TableWriter.Write(context, [
            ("path", settings.Path),
            ("backend", settings.Backend.ToString()),
            ("format version", settings.FormatVersion.ToString(CultureInfo.InvariantCulture)),
            ("change feed", settings.Enabled ? "on" : "off"),
            ("feed retention", settings.Enabled ? $"{settings.Retention.ToString(CultureInfo.InvariantCulture)} commits" : "-"),
            ("changed", settings.Changed ? "yes" : "no"),
        ]);
    }
}

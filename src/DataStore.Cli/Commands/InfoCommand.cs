using System.CommandLine;
using System.Globalization;
using DataStore.Manifest;
using Spectre.Console;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore info</c>: backend, format version, path, key count and size on disk.</summary>
internal static class InfoCommand
{
    public static CliCommand Create()
    {
        var command = new Command("info", "Print the store's backend, format version, path, durability, capabilities, key count and size on disk.");
        return new(command, context =>
        {
            using var store = context.OpenStore();
            var manifest = StoreManifest.OpenOrCreate(store.Path, new DataStoreOptions { Path = store.Path, CreateIfMissing = false });
            var keys = StatusDisplay.While("Counting keys", () => StoreStatistics.CountKeys(store, []));
            var bytes = StoreStatistics.SizeOnDisk(store.Path);
            var table = new Table().AddColumn("property").AddColumn("value");
            table.AddRow("path", Markup.Escape(store.Path));
            table.AddRow("backend", store.Backend.ToString());
            table.AddRow("format version", manifest.FormatVersion.ToString(CultureInfo.InvariantCulture));
            table.AddRow("durability", store.Durability.ToString());
            table.AddRow("capabilities", store.Capabilities.ToString());
            table.AddRow("keys", keys.ToString(CultureInfo.InvariantCulture));
            table.AddRow("size on disk", $"{bytes.ToString(CultureInfo.InvariantCulture)} bytes ({StoreStatistics.Readable(bytes)})");
            TableWriter.Write(context, table);
            return ExitCode.Ok;
        });
    }
}

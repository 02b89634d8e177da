using System.CommandLine;
using System.Globalization;
using DataStore.Cli.Json;

namespace DataStore.Cli.Commands;

/// <summary><c>datastore info</c>: backend, format version, path, sharing, key count and size on disk; for a Packed store, what its file holds.</summary>
internal static class InfoCommand
{
    public static CliCommand Create()
    {
        var json = JsonOutput.CreateOption("the properties");
        var command = new Command("info", "Print the store's backend, format version, path, durability, capabilities, sharing (whether this process owns the store or reaches it through the process that does), key count and size on disk.") { json };
        return new(command, context =>
        {
            using var store = context.OpenStore();
            var manifest = StoreConfiguration.Read(store.Path);
            var keys = StatusDisplay.While("Counting keys", () => store.CountKeys([]));
            var bytes = StoreStatistics.SizeOnDisk(store.Path);
            var packed = store.Backend == StoreBackend.Packed ? PackedStore.Describe(store.Path) : null;
            if (context.Parse.GetValue(json))
            {
                var capabilities = Enum.GetValues<StoreCapabilities>().Where(c => c != StoreCapabilities.None && store.Capabilities.HasFlag(c)).Select(c => c.ToString()).ToArray();
                var record = new InfoRecord(store.Path, store.Backend.ToString(), manifest.FormatVersion, store.Durability.ToString(), capabilities,
                    store.Sharing.Role.ToString(), store.Sharing.Role == StoreRole.Direct ? null : store.Sharing.OwnerProcessId, keys, bytes, packed);
                JsonOutput.Write(context, record, CliJsonContext.Default.InfoRecord);
                return ExitCode.Ok;
            }

            List<(string, string)> rows = [
                ("path", store.Path),
                ("backend", store.Backend.ToString()),
                ("format version", manifest.FormatVersion.ToString(CultureInfo.InvariantCulture)),
                ("durability", store.Durability.ToString()),
                ("capabilities", store.Capabilities.ToString()),
                ("sharing", Describe(store.Sharing)),
                ("keys", keys.ToString(CultureInfo.InvariantCulture)),
                ("size on disk", $"{bytes.ToString(CultureInfo.InvariantCulture)} bytes ({StoreStatistics.Readable(bytes)})"),
            ];
            if (packed is not null)
            {
                rows.Add(("packed file", Describe(packed)));
            }

            TableWriter.Write(context, rows);
            return ExitCode.Ok;
        });
    }

    private static string Describe(PackedFileInfo packed) => string.Create(CultureInfo.InvariantCulture,
        $"format {packed.FormatVersion}, {packed.Pairs} pairs ({StoreStatistics.Readable(packed.KeyBytes)} of keys, {StoreStatistics.Readable(packed.ValueBytes)} of values) " +
        $"in {packed.Blocks} blocks; index {StoreStatistics.Readable(packed.IndexBytes)}, hash table {StoreStatistics.Readable(packed.HashTableBytes)}");

    private static string Describe(StoreSharing sharing) => sharing.Role switch
    {
        StoreRole.Owner => $"owner (this process, {sharing.OwnerProcessId}, serves the store to other processes)",
        StoreRole.Client => $"client of process {sharing.OwnerProcessId}, which owns the store",
        _ => "direct (the engine shares the store with other processes itself)",
    };
}

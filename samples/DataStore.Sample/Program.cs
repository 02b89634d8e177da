// The main job on the default embedded store: open the SQLite store named by appsettings.json (or
// DATASTORE__PATH, or the first argument), record a game's mods in one atomic batch, read one back,
// scan a mod's records by prefix, and edit a record with compare-and-swap.
using System.Text;
using DataStore;
using Microsoft.Extensions.Configuration;

var configuration = new ConfigurationBuilder()
    .SetBasePath(AppContext.BaseDirectory)
    .AddJsonFile("appsettings.json", optional: true)
    .AddEnvironmentVariables()
    .Build();
var options = DataStoreOptions.FromConfiguration(configuration.GetSection(DataStoreOptions.SectionName));
if (args.Length > 0)
{
    options.Path = args[0];
}

using var store = KeyValueStore.Open(options);
Console.WriteLine($"Opened the {store.Backend} store at {store.Path} ({store.Durability})");

static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

var batch = new WriteBatch();
foreach (var mod in new[] { "skyui", "ussep", "alternate-start" })
{
    batch.Put(Utf8($"skyrim/mods/{mod}/version"), Utf8("1.0"));
    batch.Put(Utf8($"skyrim/mods/{mod}/enabled"), Utf8("true"));
}

store.Write(batch);
Console.WriteLine($"skyui version: {Encoding.UTF8.GetString(store.Get(Utf8("skyrim/mods/skyui/version"))!)}");

// Compare-and-swap: bump the version only if nobody changed it since we read it.
var update = new WriteBatch()
    .RequireValue(Utf8("skyrim/mods/skyui/version"), Utf8("1.0"))
    .Put(Utf8("skyrim/mods/skyui/version"), Utf8("1.1"));
Console.WriteLine(store.TryWrite(update, out var failure) ? "skyui updated to 1.1" : $"skyui changed meanwhile: {failure}");

using var cursor = store.ScanPrefix(Utf8("skyrim/mods/"));
while (cursor.MoveNext())
{
    Console.WriteLine($"  {Encoding.UTF8.GetString(cursor.Key)} = {Encoding.UTF8.GetString(cursor.Value)}");
}

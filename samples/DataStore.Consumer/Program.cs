// A consumer of the DataStore NuGet package: opens the store its appsettings.json names (DATASTORE__PATH
// or the first argument override it), writes a game's mods, scans them back and prints them.
using System.Text;
using DataStore;
using Microsoft.Extensions.Configuration;

var configuration = new ConfigurationBuilder()
    .SetBasePath(AppContext.BaseDirectory)
    .AddJsonFile("appsettings.json", optional: false)
    .AddEnvironmentVariables()
    .Build();
var options = DataStoreOptions.FromConfiguration(configuration.GetSection(DataStoreOptions.SectionName));
if (args.Length > 0)
{
    options.Path = args[0];
}

Console.WriteLine($"backends available: {string.Join(", ", Enum.GetValues<StoreBackend>().Where(KeyValueStore.IsAvailable))}");
using var store = KeyValueStore.Open(options);
Console.WriteLine($"DataStore {typeof(KeyValueStore).Assembly.GetName().Version} opened the {store.Backend} store at {store.Path}");

var batch = new WriteBatch();
foreach (var (mod, version) in new[] { ("skyui", "5.2"), ("ussep", "4.2.9"), ("alternate-start", "4.1.6") })
{
    batch.Put(Encoding.UTF8.GetBytes($"skyrim/mods/{mod}"), Encoding.UTF8.GetBytes(version));
}

store.Write(batch);
var count = 0;
foreach (var (key, value) in store.EnumeratePrefix(Encoding.UTF8.GetBytes("skyrim/mods/")))
{
    Console.WriteLine($"{Encoding.UTF8.GetString(key)} = {Encoding.UTF8.GetString(value)}");
    count++;
}

Console.WriteLine($"scanned {count} mods");

// Opens a store on each backend from a native AOT binary: put, batch, scan, reopen (the manifest is read back), and a
// store registered with AddDataStore in a Generic Host with options bound from configuration. Prints one line per check;
// exits 1 when a check failed. RocksDb runs too: the backend binds RocksDB through its own LibraryImport declarations.
using System.Text;
using DataStore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

var root = Path.Combine(Path.GetTempPath(), $"datastore-aot-{Environment.ProcessId}");
var failed = 0;
try
{
    foreach (var backend in new[] { StoreBackend.Sqlite, StoreBackend.Lmdb, StoreBackend.FileSystem, StoreBackend.LiteDb, StoreBackend.RocksDb })
    {
        failed += Check(backend.ToString(), () => RoundTrip(Path.Combine(root, backend.ToString()), backend));
    }

    failed += Check("host", () => Hosted(Path.Combine(root, "hosted")));
}
finally
{
    Directory.Delete(root, recursive: true);
}

return failed == 0 ? 0 : 1;

static int Check(string name, Func<string> run)
{
    try
    {
        Console.WriteLine($"aot-smoke: {name} ok ({run()})");
        return 0;
    }
    catch (Exception e)
    {
        Console.WriteLine($"aot-smoke: {name} FAILED: {e.GetType().Name}: {e.Message.Split('\n')[0]}");
        return 1;
    }
}

static string RoundTrip(string path, StoreBackend backend)
{
    using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = backend }))
    {
        store.Put("mods/skyui"u8, "5.2"u8);
        store.Write(new WriteBatch().RequireValue("mods/skyui"u8, "5.2"u8).Put("mods/skyui"u8, "5.3"u8).Put("mods/ussep"u8, "4.2"u8));
    }

    // Reopened with Backend unset: the backend comes from the manifest that the first open wrote.
    using var reopened = KeyValueStore.Open(path);
    var pairs = reopened.EnumeratePrefix("mods/"u8.ToArray()).Select(p => $"{Encoding.UTF8.GetString(p.Key)}={Encoding.UTF8.GetString(p.Value)}");
    var text = string.Join(" ", pairs);
    return text == "mods/skyui=5.3 mods/ussep=4.2" ? text : throw new InvalidOperationException($"read back '{text}'");
}

static string Hosted(string path)
{
    var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
    builder.Configuration.AddInMemoryCollection([new("DataStore:Path", path), new("DataStore:Timeout", "10")]);
    builder.Services.AddDataStore(builder.Configuration.GetSection("DataStore"));
    using var host = builder.Build();
    host.Start();
    var store = host.Services.GetRequiredService<IKeyValueStore>();
    store.Put("k"u8, "v"u8);
    var value = store.Get("k"u8);
    host.StopAsync().GetAwaiter().GetResult();
    return value is [(byte)'v'] ? $"{store.Backend} store opened at host start" : throw new InvalidOperationException("value not read back");
}

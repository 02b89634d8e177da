#:project ../src/DataStore/DataStore.csproj
#:project ../src/DataStore.RocksDb/DataStore.RocksDb.csproj
#:property PublishAot=false

// Measures backup and compact on one backend: fills a store with COUNT keys of VALUE-byte random values (9-byte keys:
// "k" + 8-digit number), then times BackupAsync on the idle store, BackupAsync while a thread keeps writing, and
// CompactAsync after deleting the first half of the keys. Run with `flock /tmp/datastore-bench.lock`:
//   dotnet run scripts/measure-backup.cs -c Release -- Sqlite 1000000 128
using System.Diagnostics;
using DataStore;

var backend = Enum.Parse<StoreBackend>(args[0]);
var count = int.Parse(args[1]);
var size = int.Parse(args[2]);
var root = Path.Combine(Path.GetTempPath(), $"datastore-measure-{Guid.NewGuid():N}");
try
{
    var options = new DataStoreOptions { Path = Path.Combine(root, "store"), Backend = backend, Timeout = TimeSpan.FromMinutes(5) };
    using var store = KeyValueStore.Open(options);
    var clock = Stopwatch.StartNew();
    var value = new byte[size];
    var random = new Random(42);
    var batch = new WriteBatch();
    for (var i = 0; i < count; i++)
    {
        random.NextBytes(value); // distinct values, so compressing engines (RocksDB) store about what the others do
        batch.Put(System.Text.Encoding.ASCII.GetBytes($"k{i:D8}"), value);
        if ((i + 1) % 10_000 == 0 || i == count - 1)
        {
            store.Write(batch);
            batch.Clear();
        }
    }

    Console.WriteLine($"{backend}: filled {count:N0} keys x {size} B in {clock.Elapsed.TotalSeconds:F1} s");

    clock.Restart();
    var idle = await store.BackupAsync(Path.Combine(root, "backup-idle"));
    Console.WriteLine($"{backend}: backup of the idle store: {clock.Elapsed.TotalSeconds:F2} s, {idle.Bytes / 1e6:F1} MB");

    var written = 0;
    using var stop = new CancellationTokenSource();
    var writer = Task.Run(() =>
    {
        while (!stop.IsCancellationRequested)
        {
            store.Put(System.Text.Encoding.ASCII.GetBytes($"w{written:D8}"), value);
            written++;
        }
    });
    Thread.Sleep(200);
    var before = written;
    clock.Restart();
    var busy = await store.BackupAsync(Path.Combine(root, "backup-busy"));
    var seconds = clock.Elapsed.TotalSeconds;
    var during = written - before;
    await stop.CancelAsync();
    await writer;
    Console.WriteLine($"{backend}: backup while a thread writes: {seconds:F2} s, {busy.Bytes / 1e6:F1} MB, {during:N0} puts by the thread meanwhile ({during / seconds:N0}/s)");

    store.DeleteRange("k"u8, System.Text.Encoding.ASCII.GetBytes($"k{count / 2:D8}"));
    clock.Restart();
    var freed = await store.CompactAsync();
    Console.WriteLine($"{backend}: compact after deleting half: {clock.Elapsed.TotalSeconds:F2} s, {freed / 1e6:F1} MB given back");
    Console.WriteLine($"{backend}: peak working set {Process.GetCurrentProcess().PeakWorkingSet64 / 1e6:F0} MB");
}
finally
{
    Directory.Delete(root, recursive: true);
}

#:project ../src/DataStore.Benchmarks/DataStore.Benchmarks.csproj
#:property PublishAot=false
// Where a YCSB update's time goes on the Lmdb backend and on hand-written LMDB (LmdbPeer), in one process each (so that
// strace -f -c and perf record -g can be put around it), for ycsb.md's Lmdb write breakdown (issue 17):
//   dotnet run scripts/lmdb-update-io.cs -c Release -- TARGET WORKLOAD OPS THREADS
//   dotnet run scripts/lmdb-update-io.cs -c Release -- Lmdb A 100000 1
// TARGET is Lmdb or LmdbPeer, WORKLOAD A or F. Loads 100,000 YCSB records (12-byte keys, 100-byte values, 1,000 a
// batch), then runs OPS operations of the workload over THREADS threads and prints: wall and process CPU time per
// operation; per update, the bytes the process handed to write(2)/pwrite(2) (wchar) and the bytes it dirtied in the page
// cache (write_bytes, counted per page-cache folio) from /proc/self/io, and the bytes the disk wrote (/proc/diskstats,
// every process's: run it on an otherwise quiet disk); the data file's size; the p50 / p99 / p99.9 of updates and reads;
// and, for Lmdb, how many checkpoints its writers started in the background and how often a writer waited for one at the
// bound (ADR 0006, "The growth checkpoint in the background"; read from the store's internals by reflection: a
// diagnostic, not an API). Once loaded it creates $TMPDIR/lmdb-update-io.ready, so a profiler can attach for the run only.
using System.Diagnostics;
using System.Reflection;
using DataStore;
using DataStore.Benchmarks;
using DataStore.Benchmarks.Peers;
using DataStore.Benchmarks.Ycsb;

var (target, workload, ops, threads) = (args[0], args[1] == "F" ? YcsbWorkload.F : YcsbWorkload.A, int.Parse(args[2]), int.Parse(args[3]));
var directory = Directory.CreateTempSubdirectory("lmdb-update-io").FullName;
try
{
    using IYcsbTarget store = target == "LmdbPeer" ? new LmdbPeer(directory) : new DataStoreYcsbTarget(StoreBackend.Lmdb, directory);
    var pool = BenchmarkData.ValuePool(17);
    YcsbLoad.Into(store, 100_000, pool);
    var zipfian = new ZipfianGenerator(100_000);
    var counter = new YcsbRecordCounter(100_000);
    var workers = Enumerable.Range(0, threads).Select(t => new YcsbWorker(100 + t, zipfian, counter, pool)).ToArray();
    File.WriteAllText(Path.Combine(Path.GetTempPath(), "lmdb-update-io.ready"), "");
    var (wchar, dirtied, disk) = (Io("wchar"), Io("write_bytes"), DiskBytes());
    var cpu = Process.GetCurrentProcess().TotalProcessorTime;
    var wall = Stopwatch.StartNew();
    Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, t => workers[t].Run(store, workload, ops / threads));
    wall.Stop();
    var cpuUsed = Process.GetCurrentProcess().TotalProcessorTime - cpu;
    var updates = ops / 2.0;
    Console.WriteLine($"{target} {workload.Name} {threads} thread(s), load {string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ')[..3])}: {wall.Elapsed.TotalMicroseconds / ops:F1} us wall, {cpuUsed.TotalMicroseconds / ops:F1} us CPU an operation");
    Console.WriteLine($"  per update: wchar {(Io("wchar") - wchar) / updates:F0} B, write_bytes {(Io("write_bytes") - dirtied) / updates:F0} B, disk {(DiskBytes() - disk) / updates:F0} B; data file {new DirectoryInfo(directory).EnumerateFiles("*", SearchOption.AllDirectories).Max(f => f.Length) / 1e6:F1} MB");
    var latencies = YcsbLatencies.Merge(workers.Select(w => w.Latencies));
    foreach (var operation in new[] { YcsbOperation.Update, YcsbOperation.ReadModifyWrite, YcsbOperation.Read })
    {
        var h = latencies[operation];
        if (h.Count > 0)
        {
            Console.WriteLine($"  {operation}: {h.Count} ops, p50 {h.Percentile(0.5) / 1000:F1} us, p99 {h.Percentile(0.99) / 1000:F1} us, p99.9 {h.Percentile(0.999) / 1000:F1} us, max {h.MaxNanoseconds / 1e6:F2} ms");
        }
    }

    if (Field(store, "_store") is { } opened && Field(opened, "_env") is { } environment)
    {
        Console.WriteLine($"  background checkpoints {Property(environment, "BackgroundCheckpoints")}, waits at the bound {Property(environment, "BoundWaits")}");
    }
}
finally
{
    Directory.Delete(directory, recursive: true);
}

static long Io(string name) => long.Parse(File.ReadLines("/proc/self/io").First(l => l.StartsWith(name + ":", StringComparison.Ordinal))[(name.Length + 1)..]);

// Sectors written by every whole disk (not partitions: their writes are in their disk's count too), in bytes.
static long DiskBytes() => File.ReadLines("/proc/diskstats").Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries))
    .Where(f => Directory.Exists($"/sys/block/{f[2]}") && !f[2].StartsWith("loop", StringComparison.Ordinal)).Sum(f => long.Parse(f[9]) * 512);

static object? Field(object o, string name) => o.GetType().GetField(name, BindingFlags.NonPublic | BindingFlags.Instance)?.GetValue(o);

static object? Property(object o, string name) => o.GetType().GetProperty(name, BindingFlags.NonPublic | BindingFlags.Instance)?.GetValue(o);

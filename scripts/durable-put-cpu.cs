#:project ../src/DataStore.Benchmarks/DataStore.Benchmarks.csproj
#:property PublishAot=false
// CPU time and context switches per Durable put from 1, 8 and 32 plain threads, DurablePutBenchmarks' shape (9-byte
// keys, 128-byte values), for the native ruler's table (docs/benchmarks/durable-put-native.md, issue 17):
//   dotnet run scripts/durable-put-cpu.cs -c Release -- BACKEND PUTS THREADS ROUNDS
//   dotnet run scripts/durable-put-cpu.cs -c Release -- Sqlite 4096 1,8,32 3
// Prints puts per second, process CPU time (user + sys, getrusage) per put, and context switches (voluntary +
// involuntary) per put, per round and thread count (the counts alternating within a round), with the load average.
using System.Diagnostics;
using DataStore;
using DataStore.Benchmarks;

var backend = Enum.Parse<StoreBackend>(args[0]);
var puts = int.Parse(args[1]);
var threadCounts = args[2].Split(',').Select(int.Parse).ToArray();
var rounds = int.Parse(args[3]);
var pool = BenchmarkData.ValuePool(9);
var directory = BenchmarkData.NewDirectory();
try
{
    using var store = KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend, Durability = Durability.Durable });
    for (var round = 0; round < rounds; round++)
    {
        foreach (var threads in threadCounts)
        {
            var perThread = puts / threads;
            var before = ProcessUsage.Now();
            var clock = Stopwatch.StartNew();
            var writers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
            {
                var key = new byte[BenchmarkData.KeySize];
                for (var i = 0; i < perThread; i++)
                {
                    BenchmarkData.WriteKey(key, (t * perThread) + i);
                    store.Put(key, pool.AsSpan(i * BenchmarkData.ValueSize, BenchmarkData.ValueSize));
                }
            })).ToArray();
            Array.ForEach(writers, w => w.Start());
            Array.ForEach(writers, w => w.Join());
            var cost = ProcessUsage.Now().PerOperation(before, (double)perThread * threads);
            Console.WriteLine($"{backend}\t{threads}\t{round + 1}\t{perThread * threads / clock.Elapsed.TotalSeconds:F0} puts/s\t" +
                $"{cost.CpuMicroseconds:F1} us CPU/put\t{cost.Voluntary + cost.Involuntary:F2} switches/put\tload {File.ReadAllText("/proc/loadavg").Split(' ')[0]}");
        }
    }
}
finally
{
    Directory.Delete(directory, recursive: true);
}

#:project ../src/DataStore.Benchmarks/DataStore.Benchmarks.csproj
#:property PublishAot=false
// CPU time and context switches per point read on the LiteDb backend and on raw LiteDB (LiteDbPeer), from plain
// threads, for a loaded machine where wall-clock throughput says little (issue 17):
//   dotnet run scripts/litedb-read-cpu.cs -c Release -- TARGET RECORDS THREADS OPS ROUNDS
//   dotnet run scripts/litedb-read-cpu.cs -c Release -- LiteDb 100000 1,4 20000 2
// TARGET is LiteDb or LiteDbPeer. Loads RECORDS YCSB records (12-byte keys, 100-byte random values, 1,000 a batch),
// then for each round and thread count reads OPS keys chosen by YCSB's scrambled Zipfian, split among the threads, and
// prints reads per second, process CPU time (user + sys) per read, and voluntary / involuntary context switches per
// read (getrusage), with the load average.
using System.Diagnostics;
using DataStore;
using DataStore.Benchmarks;
using DataStore.Benchmarks.Peers;
using DataStore.Benchmarks.Ycsb;

var target = args[0];
var records = int.Parse(args[1]);
var threadCounts = args[2].Split(',').Select(int.Parse).ToArray();
var ops = int.Parse(args[3]);
var rounds = int.Parse(args[4]);
var directory = Directory.CreateTempSubdirectory("litedb-read-cpu").FullName;
try
{
    using IYcsbTarget store = target == "LiteDbPeer" ? new LiteDbPeer(directory) : new DataStoreYcsbTarget(StoreBackend.LiteDb, directory);
    var random = new Random(5);
    var pairs = new List<(byte[] Key, byte[] Value)>();
    for (var record = 0; record < records; record++)
    {
        var value = new byte[YcsbKeys.ValueSize];
        random.NextBytes(value);
        pairs.Add((YcsbKeys.Of(record), value));
        if (pairs.Count == 1_000 || record == records - 1)
        {
            store.Load(pairs);
            pairs.Clear();
        }
    }

    var zipfian = new ZipfianGenerator(records);
    for (var round = 0; round < rounds; round++)
    {
        foreach (var threads in threadCounts)
        {
            var keys = Enumerable.Range(0, ops).Select(_ => YcsbKeys.Of(zipfian.NextScrambled(random))).ToArray();
            var perThread = ops / threads;
            long found = 0;
            var before = ProcessUsage.Now();
            var clock = Stopwatch.StartNew();
            var readers = Enumerable.Range(0, threads).Select(t => new Thread(() =>
            {
                var buffer = new byte[256];
                long hits = 0;
                for (var i = t * perThread; i < (t + 1) * perThread; i++)
                {
                    hits += store.Read(keys[i], buffer) >= 0 ? 1 : 0;
                }

                Interlocked.Add(ref found, hits);
            })).ToArray();
            foreach (var reader in readers)
            {
                reader.Start();
            }

            foreach (var reader in readers)
            {
                reader.Join();
            }

            clock.Stop();
            var after = ProcessUsage.Now();
            var read = perThread * threads;
            Console.WriteLine($"{target} threads={threads} round={round}: {read / clock.Elapsed.TotalSeconds:F0} reads/s, " +
                $"cpu {(after.CpuMicroseconds - before.CpuMicroseconds) / read:F1} us/read, " +
                $"context switches {(double)(after.Voluntary - before.Voluntary) / read:F2} voluntary + {(double)(after.Involuntary - before.Involuntary) / read:F2} involuntary per read, " +
                $"found {found}/{read}, load {File.ReadAllText("/proc/loadavg").Split(' ')[0]}");
        }
    }
}
finally
{
    Directory.Delete(directory, recursive: true);
}

using System.Buffers.Binary;
using System.Diagnostics;

namespace DataStore.TestHost;

/// <summary>
/// The <c>batch-cpu keys batches</c> command: a bulk load of <c>keys</c> keys (even ids, the benchmarks' 9-byte keys and
/// 128-byte values) in random order, 1,000 per batch, into the store, then <c>batches</c> batches of 1,000 overwrites of
/// random loaded keys; prints for each the process's CPU time a key (all threads, user and system) and keys a second.
/// </summary>
internal static class BatchCpu
{
    public static int Run(IKeyValueStore store, int keys, int batches)
    {
        var pool = new byte[4 << 20];
        new Random(13).NextBytes(pool);
        var random = new Random(1);
        var order = Enumerable.Range(0, keys).ToArray();
        random.Shuffle(order);
        var batch = new WriteBatch();
        var key = new byte[9];
        key[0] = 1;
        Measure($"bulk {keys}", keys, () =>
        {
            for (var i = 0; i < keys; i++)
            {
                BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(1), 2L * order[i]);
                batch.Put(key, pool.AsSpan(random.Next(pool.Length - 128), 128));
                if (batch.Count == 1_000 || i == keys - 1)
                {
                    store.Write(batch);
                    batch.Clear();
                }
            }
        });
        Measure($"overwrite {batches * 1_000}", batches * 1_000, () =>
        {
            for (var b = 0; b < batches; b++)
            {
                for (var i = 0; i < 1_000; i++)
                {
                    BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(1), 2L * random.Next(keys));
                    batch.Put(key, pool.AsSpan(random.Next(pool.Length - 128), 128));
                }

                store.Write(batch);
                batch.Clear();
            }
        });
        return 0;
    }

    private static void Measure(string what, int keys, Action run)
    {
        var process = Process.GetCurrentProcess();
        var (cpu, user) = (process.TotalProcessorTime, process.UserProcessorTime);
        var clock = Stopwatch.StartNew();
        run();
        var seconds = clock.Elapsed.TotalSeconds;
        process.Refresh();
        Console.WriteLine($"{what}: CPU {(process.TotalProcessorTime - cpu).TotalMicroseconds / keys:0.0} us a key ({(process.UserProcessorTime - user).TotalMicroseconds / keys:0.0} user), {keys / seconds:0} keys/s, load {File.ReadAllText("/proc/loadavg")[..14]}");
    }
}

using System.Diagnostics;
using System.Text;
using DataStore;

namespace DataStore.TestHost;

/// <summary>
/// The power-loss test's workload, <c>power-loss-writes marks seed milliseconds sync-interval-ms</c>: for the given
/// time it writes single puts of new keys (<c>put/i</c> = i), 2-key batches (<c>batch/i/a</c>, <c>batch/i/b</c> = i)
/// and overwrites of eight hot keys (<c>hot/j</c> = i), in a seeded order. After each call returns it appends one line
/// to the marks file (<c>P i</c>, <c>B i</c>, <c>H j i</c>) with one unbuffered write, which the power-loss shim
/// records in order with the store's own file operations.
/// </summary>
internal static class PowerLossWrites
{
    public const int HotKeys = 8;

    public static int Run(DataStoreOptions options, string marksPath, int seed, int milliseconds, int syncIntervalMilliseconds)
    {
        options.SyncInterval = TimeSpan.FromMilliseconds(syncIntervalMilliseconds);
        using var marks = new FileStream(marksPath, FileMode.Create, FileAccess.Write, FileShare.Read, bufferSize: 0);
        var random = new Random(seed);
        var count = 0;
        using (var store = KeyValueStore.Open(options))
        {
            Mark(marks, "OPENED");
            var clock = Stopwatch.StartNew();
            var batch = new WriteBatch();
            for (var i = 1; clock.ElapsedMilliseconds < milliseconds; i++, count++)
            {
                switch (random.Next(3))
                {
                    case 0:
                        store.Put(Commands.Key("put", i), Commands.Number(i));
                        Mark(marks, $"P {i}");
                        break;
                    case 1:
                        batch.Clear();
                        store.Write(batch
                            .Put([.. Commands.Key("batch", i), (byte)'a'], Commands.Number(i))
                            .Put([.. Commands.Key("batch", i), (byte)'b'], Commands.Number(i)));
                        Mark(marks, $"B {i}");
                        break;
                    default:
                        var hot = random.Next(HotKeys);
                        store.Put(Commands.Key("hot", hot), Commands.Number(i));
                        Mark(marks, $"H {hot} {i}");
                        break;
                }
            }
        }

        Mark(marks, "CLOSED");
        Console.WriteLine($"DONE {count}");
        return 0;
    }

    private static void Mark(FileStream marks, string line) => marks.Write(Encoding.ASCII.GetBytes(line + "\n"));
}

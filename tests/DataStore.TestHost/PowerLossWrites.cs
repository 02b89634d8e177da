using System.Diagnostics;
using System.Text;
using DataStore;
using DataStore.FileSystem;

namespace DataStore.TestHost;

/// <summary>
/// The power-loss test's workload, <c>power-loss-writes marks seed milliseconds sync-interval-ms</c>: for the given
/// time it writes single puts of new keys (<c>put/i</c> = i), 2-key batches (<c>batch/i/a</c>, <c>batch/i/b</c> = i)
/// and overwrites of eight hot keys (<c>hot/j</c> = i), in a seeded order; with <c>feed</c> after the arguments it creates
/// the store with the change feed on and also deletes the last single put's key (<c>D j</c>) and the last batch's keys with
/// one DeletePrefix (<c>X j</c>). After each call returns it appends one line to the marks file (<c>P i</c>, <c>B i</c>,
/// <c>H j i</c>, <c>D j</c>, <c>X j</c>; with the feed followed by the commit's sequence, which any subscriber may have
/// seen from then on) with one unbuffered write, which the power-loss shim records in order with the
/// store's own file operations. With the feed, a subscriber thread marks each new sequence it sees and when
/// (<c>S n t</c>, <see cref="LatestSequenceWatcher"/>), so the marks show a number seen before its commit was acknowledged.
/// A FileSystem store given a <c>split-limit</c> (a number after the arguments, as the tests' lowered directory limit) splits its leaves after a few keys, its splits prepared beside the writes (ADR 0008),
/// so the log crosses preparations and publishes; it then makes at least three limits' worth of writes.
/// </summary>
internal static class PowerLossWrites
{
    public const int HotKeys = 8;

    /// <summary>Runs the workload from the command's arguments: marks, seed, milliseconds, sync interval, then <c>feed</c> and a split limit, each optional.</summary>
    public static int Run(DataStoreOptions options, string[] arguments)
    {
        var extra = arguments.Skip(4).ToArray();
        return Run(options, arguments[0], int.Parse(arguments[1]), int.Parse(arguments[2]), int.Parse(arguments[3]), extra.Contains("feed"),
            extra.Where(a => a != "feed").Select(int.Parse).FirstOrDefault());
    }

    private static int Run(DataStoreOptions options, string marksPath, int seed, int milliseconds, int syncIntervalMilliseconds, bool feed, int splitLimit)
    {
        options.SyncInterval = TimeSpan.FromMilliseconds(syncIntervalMilliseconds);
        options.ChangeFeed = feed ? true : null;
        var (lastPut, lastBatch) = (0, 0);
        using var marks = new FileStream(marksPath, FileMode.Create, FileAccess.Write, FileShare.Read, bufferSize: 0);
        var random = new Random(seed);
        var count = 0;
        var splits = new PreparedSplitCounter();
        using (var store = Open(options, splitLimit, splits))
        using (var subscriber = feed ? new LatestSequenceWatcher(store, line => Mark(marks, line)) : null)
        {
            Mark(marks, "OPENED");
            var clock = Stopwatch.StartNew();
            var batch = new WriteBatch();
            // With a split limit, at least three limits' worth of writes, and on until a prepared split has been published
            // (its preparation runs on the thread pool, which a loaded machine can hold back past the writes' time, and a
            // leaf that fills up meanwhile splits the old way), at most fifty limits' worth; past ten limits' worth with
            // none published, it pauses 2 ms before each write, so a preparation starved of the CPU can catch up.
            var minimum = splitLimit * 3;
            for (var i = 1; clock.ElapsedMilliseconds < milliseconds || count < minimum || (splitLimit > 0 && splits.Published == 0 && count < splitLimit * 50); i++, count++)
            {
                if (splitLimit > 0 && splits.Published == 0 && count >= splitLimit * 10)
                {
                    Thread.Sleep(2);
                }

                switch (random.Next(feed ? 5 : 3))
                {
                    case 0:
                        store.Put(Commands.Key("put", i), Commands.Number(i));
                        Mark(marks, $"P {i}", store, feed);
                        lastPut = i;
                        break;
                    case 1:
                        batch.Clear();
                        store.Write(batch
                            .Put([.. Commands.Key("batch", i), (byte)'a'], Commands.Number(i))
                            .Put([.. Commands.Key("batch", i), (byte)'b'], Commands.Number(i)));
                        Mark(marks, $"B {i}", store, feed);
                        lastBatch = i;
                        break;
                    case 3 when lastPut > 0:
                        store.Delete(Commands.Key("put", lastPut));
                        Mark(marks, $"D {lastPut}", store, feed);
                        lastPut = 0;
                        break;
                    case 4 when lastBatch > 0:
                        store.DeletePrefix(Commands.Key("batch", lastBatch));
                        Mark(marks, $"X {lastBatch}", store, feed);
                        lastBatch = 0;
                        break;
                    default:
                        var hot = random.Next(HotKeys);
                        store.Put(Commands.Key("hot", hot), Commands.Number(i));
                        Mark(marks, $"H {hot} {i}", store, feed);
                        break;
                }
            }
        }

        Mark(marks, "CLOSED");
        Console.WriteLine($"DONE {count}");
        return 0;
    }

    private static IKeyValueStore Open(DataStoreOptions options, int splitLimit, PreparedSplitCounter splits)
    {
        if (splitLimit <= 0 || options.Backend != StoreBackend.FileSystem)
        {
            return KeyValueStore.Open(options);
        }

        KeyValueStore.Open(options).Dispose(); // the public open writes the manifest; the internal one takes the limit
        PreparedSplitLimits.ForceForTests = true;
        try
        {
            return FileSystemStore.Open(options.Path, options.Durability ?? Durability.Relaxed, options, splits, splitLimit);
        }
        finally
        {
            PreparedSplitLimits.ForceForTests = false;
        }
    }

    /// <summary>Marks an acknowledged commit; with the feed, its sequence (the writer is the store's only one, so the latest).</summary>
    private static void Mark(FileStream marks, string line, IKeyValueStore store, bool feed) =>
        Mark(marks, feed ? $"{line} {store.ChangeSequence()}" : line);

    // Two threads mark with the feed (the writer and the subscriber): one write at a time, each a line of its own.
    private static void Mark(FileStream marks, string line)
    {
        lock (marks)
        {
            marks.Write(Encoding.ASCII.GetBytes(line + "\n"));
        }
    }
}

using System.Diagnostics;

namespace DataStore.TestHost;

/// <summary>
/// The <c>spread-loop seconds</c> command: for <c>seconds</c>, single Puts of new random keys into two directories (first
/// bytes 0x03 and 0x04) and, after every eighth, a 2-key batch; prints the batches made and their slowest. On a Relaxed
/// store each batch first syncs its process's unsynced Puts (two directories or more: one <c>syncfs</c>) holding the
/// store's write lock, so a writer in another process shows what that costs it (filesystem-writer-stalls.sh, case spread).
/// </summary>
internal static class SpreadLoop
{
    public static int Run(IKeyValueStore store, int seconds)
    {
        var random = new Random(Environment.ProcessId);
        var key = new byte[9];
        var value = new byte[128];
        var batch = new WriteBatch();
        var times = new List<double>();
        var end = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * seconds);
        for (var i = 1; Stopwatch.GetTimestamp() < end; i++)
        {
            key[0] = (byte)(3 + (i % 2));
            random.NextBytes(key.AsSpan(1));
            random.NextBytes(value);
            store.Put(key, value);
            if (i % 8 == 0)
            {
                random.NextBytes(key.AsSpan(1));
                batch.Clear();
                batch.Put(key, value).Put([.. key, 0], value);
                var start = Stopwatch.GetTimestamp();
                store.Write(batch);
                times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            }
        }

        times.Sort();
        Console.WriteLine(FormattableString.Invariant($"BATCHES {times.Count} median {times[times.Count / 2]:F2} ms worst {times[^1]:F1} ms"));
        return 0;
    }
}

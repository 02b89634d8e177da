using System.Diagnostics;

namespace DataStore.TestHost;

/// <summary>
/// An app's writer: puts a new random key (9 bytes, 128-byte value) every <c>interval</c> ms for <c>seconds</c>,
/// then prints how many puts it made and the slowest ones (counting those over 100 ms and over 1 s), so a reader or a load running beside it shows as stalls.
/// </summary>
internal static class WorstPut
{
    public static int Run(IKeyValueStore store, int seconds, int interval)
    {
        var random = new Random(Environment.ProcessId);
        var key = new byte[9];
        var value = new byte[128];
        var times = new List<double>();
        var end = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * seconds);
        Console.WriteLine("WRITING");
        while (Stopwatch.GetTimestamp() < end)
        {
            key[0] = 0x02;
            random.NextBytes(key.AsSpan(1));
            random.NextBytes(value);
            var start = Stopwatch.GetTimestamp();
            store.Put(key, value);
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            if (interval > 0)
            {
                Thread.Sleep(interval);
            }
        }

        times.Sort();
        Console.WriteLine(FormattableString.Invariant(
            $"PUTS {times.Count} median {times[times.Count / 2]:F2} ms p99 {times[(int)(times.Count * 0.99)]:F1} ms worst {times[^1]:F1} ms over100 {times.Count(t => t > 100)} over1000 {times.Count(t => t > 1000)}"));
        return 0;
    }
}

using System.Diagnostics;

namespace DataStore.TestHost;

/// <summary>
/// A steady writer of updates: overwrites <c>keys</c> keys in turn with <c>valueBytes</c>-byte values, one put every
/// <c>interval</c> ms for <c>seconds</c>, then prints how many puts it made, the slowest ones (counting those over
/// <c>slowMs</c>) and the data files' sizes, so a stall on the writer's path or a file that keeps growing shows.
/// </summary>
internal static class OverwriteStream
{
    public static int Run(IKeyValueStore store, string[] args)
    {
        var (seconds, interval, keys, valueBytes, slowMs) = (int.Parse(args[0]), int.Parse(args[1]), int.Parse(args[2]), int.Parse(args[3]), int.Parse(args[4]));
        var key = new byte[8];
        var value = new byte[valueBytes];
        var times = new List<double>();
        var end = Stopwatch.GetTimestamp() + (Stopwatch.Frequency * seconds);
        Console.WriteLine("WRITING");
        for (var i = 0; Stopwatch.GetTimestamp() < end; i++)
        {
            System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(key, i % keys);
            value.AsSpan().Fill((byte)i);
            var start = Stopwatch.GetTimestamp();
            store.Put(key, value);
            times.Add(Stopwatch.GetElapsedTime(start).TotalMilliseconds);
            Thread.Sleep(interval);
        }

        var slow = times.Skip(1).Count(t => t > slowMs); // the first write records and pins before it writes
        var bytes = Directory.GetFiles(store.Path).Sum(f => new FileInfo(f).Length);
        times.Sort();
        Console.WriteLine(FormattableString.Invariant(
            $"PUTS {times.Count} median {times[times.Count / 2]:F2} ms worst {times[^1]:F1} ms slow {slow} files {bytes}"));
        return 0;
    }
}

using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;

namespace DataStore.TestHost;

/// <summary>
/// The change-feed commands: the tests' writer (<c>feed-writes</c>), and the measurements of docs/benchmarks/change-feed.md:
/// delivery latency to another process (<c>feed-stamps</c> writes, <c>feed-latency</c> watches) and an idle subscriber's CPU.
/// </summary>
internal static class FeedCommands
{
    private static readonly byte[] StampPrefix = "lat/"u8.ToArray();

    /// <summary>Makes <see cref="FeedWorkload"/> commits <paramref name="first"/> to <paramref name="last"/>, printing <c>ACK i</c> after each.</summary>
    public static int Writes(IKeyValueStore store, int first, int last)
    {
        for (var i = first; i <= last; i++)
        {
            FeedWorkload.Commit(store, i);
            Console.WriteLine($"ACK {i}");
        }

        return 0;
    }

    /// <summary>
    /// Puts <c>p/1</c>..<c>p/count</c> (value: the number), printing <c>ACK i</c> after each, then starts the Put of
    /// <c>p/count+1</c> and stops it after step <paramref name="step"/> of a FileSystem logged Put, printing <c>STOPPED</c>
    /// and waiting to be killed.
    /// </summary>
    public static int PutStoppedAt(IKeyValueStore store, int step, int count)
    {
        for (var i = 1; i <= count; i++)
        {
            store.Put(System.Text.Encoding.UTF8.GetBytes($"p/{i}"), BitConverter.GetBytes(i));
            Console.WriteLine($"ACK {i}");
        }

        DataStore.FileSystem.TreeWriter.LoggedPutStepForTests = reached =>
        {
            if (reached == step)
            {
                Console.WriteLine("STOPPED");
                Thread.Sleep(Timeout.Infinite);
            }
        };
        store.Put(System.Text.Encoding.UTF8.GetBytes($"p/{count + 1}"), BitConverter.GetBytes(count + 1));
        Console.WriteLine("NOT STOPPED");
        return 1;
    }

    /// <summary>Puts <paramref name="count"/> keys <c>lat/</c> + the monotonic clock at the put, <paramref name="pauseMs"/> apart.</summary>
    public static int Stamps(IKeyValueStore store, int count, int pauseMs)
    {
        var key = new byte[StampPrefix.Length + 8];
        StampPrefix.CopyTo(key, 0);
        for (var i = 0; i < count; i++)
        {
            BinaryPrimitives.WriteInt64BigEndian(key.AsSpan(StampPrefix.Length), Stopwatch.GetTimestamp());
            store.Put(key, []);
            Thread.Sleep(pauseMs);
        }

        return 0;
    }

    /// <summary>Watches <c>lat/</c> until <paramref name="count"/> puts arrived; prints the median and 99th percentile from put to delivery.</summary>
    public static int Latency(IKeyValueStore store, int count)
    {
        var latencies = new List<double>(count);
        var watch = Task.Run(async () =>
        {
            await foreach (var change in store.Watch(StampPrefix))
            {
                var stamp = BinaryPrimitives.ReadInt64BigEndian(change.Changes[0].Key.AsSpan(StampPrefix.Length));
                latencies.Add(Stopwatch.GetElapsedTime(stamp).TotalMilliseconds);
                if (latencies.Count == count)
                {
                    return;
                }
            }
        });
        Console.WriteLine("READY");
        watch.GetAwaiter().GetResult();
        latencies.Sort();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"LATENCY n={count} median={latencies[count / 2]:F2} ms p99={latencies[(int)(count * 0.99)]:F2} ms max={latencies[^1]:F2} ms"));
        return 0;
    }

    /// <summary>
    /// Subscribes (or, with <paramref name="subscribe"/> false, only holds the store open: the baseline), lets it settle for 5 s,
    /// and waits <paramref name="seconds"/>; prints the process's CPU time over that wait.
    /// </summary>
    public static int Idle(IKeyValueStore store, int seconds, bool subscribe)
    {
        using var stop = new CancellationTokenSource();
        var watch = !subscribe ? Task.CompletedTask : Task.Run(async () =>
        {
            try
            {
                await foreach (var _ in store.Watch("idle/"u8, cancellationToken: stop.Token))
                {
                }
            }
            catch (OperationCanceledException)
            {
            }
        });
        Thread.Sleep(5000); // the subscription's first read (through an owner, a request) and the JIT settle, also on a loaded machine
        var process = Process.GetCurrentProcess();
        var before = process.TotalProcessorTime;
        Thread.Sleep(TimeSpan.FromSeconds(seconds));
        process.Refresh();
        var used = process.TotalProcessorTime - before;
        stop.Cancel();
        watch.GetAwaiter().GetResult();
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"IDLE {seconds} s {(subscribe ? "subscribed" : "store open, no subscription")}: CPU {used.TotalMilliseconds:F0} ms"));
        return 0;
    }
}

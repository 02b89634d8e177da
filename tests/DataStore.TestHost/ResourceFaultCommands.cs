using System.Runtime.InteropServices;

namespace DataStore.TestHost;

/// <summary>
/// The resource-fault commands. Each prints <c>ACK i</c> per acknowledged write and ends a fault as
/// <c>FAULT &lt;Cause&gt; &lt;Type&gt;: &lt;message&gt;</c>; any exception that is not a DataStoreException escapes
/// and ends the process with the runtime's crash exit code, which the tests count as a failure.
/// </summary>
internal static partial class ResourceFaultCommands
{
    private const int RlimitNoFile = 7; // Linux

    /// <summary><c>fill-until-fault</c>: puts (and every fourth step a two-key batch) with growing values until a write fails.</summary>
    public static int FillUntilFault(DataStoreOptions options, int steps) => FillUntilFault(options, steps, out _);

    /// <summary>The same; <paramref name="acknowledged"/> is the last step acknowledged, or -1.</summary>
    public static int FillUntilFault(DataStoreOptions options, int steps, out int acknowledged)
    {
        acknowledged = -1;
        IKeyValueStore store;
        try
        {
            store = KeyValueStore.Open(options);
        }
        catch (DataStoreException e)
        {
            return Fault(e);
        }

        try
        {
            for (var i = 0; i < steps; i++)
            {
                try
                {
                    WriteStep(store, i);
                }
                catch (DataStoreException e)
                {
                    Fault(e);
                    Console.WriteLine($"READABLE {Readable(store, i)}");
                    return 3;
                }

                Console.WriteLine($"ACK {i}");
                acknowledged = i;
            }

            Console.WriteLine("NOFAULT");
            return 1;
        }
        finally
        {
            Close(store);
        }
    }

    /// <summary><c>check-fill</c>: every acknowledged step holds its value, the failed step is whole or absent, the store verifies clean and takes a write.</summary>
    public static int CheckFill(IKeyValueStore store, int acknowledged)
    {
        for (var i = 0; i <= acknowledged; i++)
        {
            if (!Holds(store, i))
            {
                Console.WriteLine($"LOST {i}");
                return 1;
            }
        }

        var failed = acknowledged + 1;
        var partial = store.Get(FaultKey(failed)) is { } value && !value.AsSpan().SequenceEqual(FaultValue(failed));
        Console.WriteLine($"CHECKED {acknowledged + 1} failed-step {(partial ? "PARTIAL" : "whole-or-absent")}");
        if (IntegrityCheck.Run(store) != 0 || partial)
        {
            return 1;
        }

        store.Put("after-fault"u8, "written"u8);
        Console.WriteLine(store.Get("after-fault"u8) is { } written && written.AsSpan().SequenceEqual("written"u8) ? "WROTE" : "NOT-WRITTEN");
        return 0;
    }

    /// <summary>
    /// <c>open-until-fault</c>: with descriptors limited to those open now plus <paramref name="spare"/>, opens stores (each with
    /// an open scan) until one fails; then, with one store closed, the others keep working, and with all closed the failed one opens.
    /// </summary>
    public static int OpenUntilFault(string parent, StoreBackend backend, int spare)
    {
        // Code the runtime has not loaded yet needs a descriptor to load (and the runtime fails fast without one): run every path once first.
        Warm(Path.Combine(parent, "warm"), backend);
        ThreadPoolWarmup.Run();
        var before = Descriptors();
        var open = before.Count;
        var limit = new Limit { Current = (ulong)(open + spare), Maximum = (ulong)(open + spare) };
        if (SetLimit(RlimitNoFile, ref limit) != 0)
        {
            Console.WriteLine($"NOLIMIT errno {Marshal.GetLastPInvokeError()}");
            return 1;
        }

        Console.WriteLine($"LIMIT {open + spare} descriptors ({open} open at start)");
        var stores = new List<(IKeyValueStore Store, IKeyValueCursor Scan)>();
        string? failedPath = null;
        for (var i = 0; i < 1000 && failedPath is null; i++)
        {
            var path = Path.Combine(parent, $"s{i}");
            try
            {
                var store = KeyValueStore.Open(Options(path, backend));
                try
                {
                    stores.Add((store, OpenScan(store, i)));
                }
                catch (DataStoreException)
                {
                    store.Dispose();
                    throw;
                }

                Console.WriteLine($"OPENED {i}");
            }
            catch (DataStoreException e)
            {
                Fault(e);
                failedPath = path;
            }
        }

        if (failedPath is null || stores.Count < 2)
        {
            Console.WriteLine(failedPath is null ? "NOFAULT" : "TOO-FEW-OPENED");
            return 1;
        }

        // With the first half closed (their descriptors free again), every other store that stayed open across the fault works.
        var closed = stores.Count / 2;
        foreach (var (store, scan) in stores.Take(closed))
        {
            scan.Dispose();
            store.Dispose();
        }

        for (var i = closed; i < stores.Count; i++)
        {
            stores[i].Scan.Dispose();
            stores[i].Store.Put(FaultKey(i), FaultValue(i));
            if (!stores[i].Store.Get(FaultKey(i)).AsSpan().SequenceEqual(FaultValue(i)) || stores[i].Store.EnumerateKeys([]).Count() != 1)
            {
                Console.WriteLine($"LOST {i}");
                return 1;
            }
        }

        Console.WriteLine($"OTHERS-OK {stores.Count - closed}");
        foreach (var (store, _) in stores.Skip(closed))
        {
            store.Dispose();
        }

        using (var again = KeyValueStore.Open(Options(failedPath, backend)))
        {
            again.Put(FaultKey(0), FaultValue(0));
            Console.WriteLine(again.Get(FaultKey(0)).AsSpan().SequenceEqual(FaultValue(0)) ? "RECOVERED" : "NOT-RECOVERED");
        }

        var after = Descriptors();
        Console.WriteLine($"OPEN-AT-END {after.Count}");
        foreach (var extra in after.Where(target => !before.Remove(target)))
        {
            Console.WriteLine($"EXTRA {extra}");
        }

        return 0;
    }

    /// <summary>The key of step <paramref name="i"/>.</summary>
    public static byte[] FaultKey(int i) => Commands.Key("fault", i);

    /// <summary>The value of step <paramref name="i"/>: 1 KiB doubling every three steps up to 4 MiB, a pattern that depends on the step.</summary>
    public static byte[] FaultValue(int i)
    {
        var value = new byte[1024 << Math.Min(i / 3, 12)];
        for (var j = 0; j < value.Length; j++)
        {
            value[j] = (byte)((i * 31) + (j * 7) + (j >> 8));
        }

        return value;
    }

    private static void WriteStep(IKeyValueStore store, int i)
    {
        if (i % 4 == 3)
        {
            store.Write(new WriteBatch().Put(FaultKey(i), FaultValue(i)).Put([.. FaultKey(i), (byte)'b'], FaultValue(i)));
        }
        else
        {
            store.Put(FaultKey(i), FaultValue(i));
        }
    }

    private static bool Holds(IKeyValueStore store, int i)
    {
        var value = store.Get(FaultKey(i));
        var whole = value is not null && value.AsSpan().SequenceEqual(FaultValue(i));
        if (i % 4 == 3)
        {
            var second = store.Get([.. FaultKey(i), (byte)'b']);
            whole = whole && second is not null && second.AsSpan().SequenceEqual(FaultValue(i));
        }

        return whole;
    }

    // After a failed write the open store still answers reads of what it acknowledged.
    private static string Readable(IKeyValueStore store, int failed)
    {
        try
        {
            return failed == 0 || Holds(store, failed - 1) ? "yes" : "LOST";
        }
        catch (DataStoreException e)
        {
            return $"no ({e.Cause}: {e.Message})";
        }
    }

    private static DataStoreOptions Options(string path, StoreBackend backend) => new() { Path = path, Backend = backend, Timeout = TimeSpan.FromSeconds(5) };

    // What each open descriptor refers to (a path, socket:[...], anon_inode:[...]).
    private static List<string> Descriptors() =>
        [.. Directory.GetFiles("/proc/self/fd").Select(fd => new FileInfo(fd).LinkTarget).OfType<string>().Where(target => !target.StartsWith("/proc/", StringComparison.Ordinal))];

    private static void Warm(string path, StoreBackend backend)
    {
        // The runtime's own threads start at their first use and need a descriptor to start (without one it fails fast:
        // "Failed to create the thread pool Gate thread"), as an app's have long started: a timer callback on the pool
        // starts the timer thread, a worker and the pool's gate thread before the descriptors run out.
        using (var ran = new ManualResetEventSlim())
        using (new Timer(_ => ran.Set(), null, 1, Timeout.Infinite))
        {
            ran.Wait();
        }

        Task.Run(() => { }).Wait();
        using var store = KeyValueStore.Open(Options(path, backend));
        WriteStep(store, 3);
        using (OpenScan(store, 0))
        {
        }

        _ = Holds(store, 3) && store.EnumerateKeys([]).Any();
    }

    private static IKeyValueCursor OpenScan(IKeyValueStore store, int i)
    {
        store.Put(FaultKey(i), FaultValue(0));
        var scan = store.ScanPrefix([]);
        scan.MoveNext();
        return scan;
    }

    private static void Close(IKeyValueStore store)
    {
        try
        {
            store.Dispose();
        }
        catch (DataStoreException e)
        {
            Console.WriteLine($"CLOSE {e.Cause} {e.GetType().Name}: {e.Message}");
        }
    }

    private static int Fault(DataStoreException e)
    {
        Console.WriteLine($"FAULT {e.Cause} {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}");
        return 3;
    }

    /// <summary>setrlimit(2).</summary>
    [LibraryImport("libc", EntryPoint = "setrlimit", SetLastError = true)]
    internal static partial int SetLimit(int resource, ref Limit limit);

    /// <summary>A resource limit: soft (current) and hard (maximum).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct Limit
    {
        public ulong Current;
        public ulong Maximum;
    }
}

using System.Diagnostics;
using System.Globalization;

namespace DataStore.Benchmarks.Workload;

/// <summary>
/// The child process of <see cref="MillionRecordWorkload"/>: runs every phase on one backend's store and writes one
/// tab-separated line per phase (<c>phase, name, operations, seconds, RssAnon KiB at its end</c>) and the memory it held
/// before the store opened (<c>before, RssAnon KiB</c>) and at the end (<c>end, RssAnon KiB, VmHWM KiB</c>), and what the
/// .NET heap held (<c>heap, live KiB after a full collection with the store open, bytes allocated while it was open,
/// gen-0 collections</c>): RssAnon far above the live heap is the garbage collector's room, not data the backend keeps.
/// </summary>
public static class WorkloadChild
{
    /// <summary>Runs the workload of <paramref name="records"/> records on a new <paramref name="backend"/> store in <paramref name="directory"/>.</summary>
    public static int Run(StoreBackend backend, int records, string directory)
    {
        var phases = new WorkloadPhases(records, BenchmarkData.ValuePool(19));
        GC.Collect();
        Console.WriteLine(Line("before", Self().RssAnonKiB));
        var allocatedBefore = GC.GetTotalAllocatedBytes(precise: true);
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = directory, Backend = backend }))
        {
            foreach (var (name, run) in phases.On(store))
            {
                var start = Stopwatch.GetTimestamp();
                var operations = run();
                var seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
                Console.WriteLine(Line("phase", name, operations, seconds.ToString("R", CultureInfo.InvariantCulture), Self().RssAnonKiB));
            }

            var allocated = GC.GetTotalAllocatedBytes(precise: true) - allocatedBefore;
            Console.WriteLine(Line("heap", GC.GetTotalMemory(forceFullCollection: true) / 1024, allocated, GC.CollectionCount(0)));
        }

        var end = Self();
        Console.WriteLine(Line("end", end.RssAnonKiB, end.PeakRssKiB));
        return 0;
    }

    private static ProcessMemory Self() => ProcessMemory.Read(Environment.ProcessId) ?? default;

    private static string Line(params object[] fields) => string.Join('\t', fields.Select(f => Convert.ToString(f, CultureInfo.InvariantCulture)));
}

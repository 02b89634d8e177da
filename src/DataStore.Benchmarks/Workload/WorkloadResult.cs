using System.Globalization;

namespace DataStore.Benchmarks.Workload;

/// <summary>One backend's run of the workload: each phase's operations and seconds, and its child process's memory in KiB.</summary>
public sealed class WorkloadResult(string backend)
{
    public string Backend { get; } = backend;

    public List<(string Name, long Operations, double Seconds)> Phases { get; } = [];

    /// <summary>RssAnon before the store opened: the runtime, the value pool and the random order of ids.</summary>
    public long BeforeKiB { get; private set; }

    /// <summary>The largest RssAnon seen: sampled by the parent every few milliseconds and at the end of every phase.</summary>
    public long PeakAnonKiB { get; private set; }

    /// <summary>VmHWM at the end: the peak resident memory, file pages mapped from the store included.</summary>
    public long PeakRssKiB { get; private set; }

    /// <summary>The .NET heap's live objects after a full collection at the end, the store still open.</summary>
    public long LiveHeapKiB { get; private set; }

    /// <summary>The bytes allocated on the .NET heap while the store was open, over every phase.</summary>
    public long AllocatedBytes { get; private set; }

    /// <summary>The operations of every phase together.</summary>
    public long Operations => Phases.Sum(p => p.Operations);

    /// <summary>Takes in a sample of RssAnon taken while the child ran.</summary>
    public void Sample(long rssAnonKiB) => PeakAnonKiB = Math.Max(PeakAnonKiB, rssAnonKiB);

    /// <summary>Takes in one line of the child's output (<see cref="WorkloadChild"/>).</summary>
    public void Add(string line)
    {
        var fields = line.Split('\t');
        switch (fields[0])
        {
            case "before":
                BeforeKiB = long.Parse(fields[1], CultureInfo.InvariantCulture);
                Sample(BeforeKiB);
                break;
            case "phase":
                Phases.Add((fields[1], long.Parse(fields[2], CultureInfo.InvariantCulture), double.Parse(fields[3], CultureInfo.InvariantCulture)));
                Sample(long.Parse(fields[4], CultureInfo.InvariantCulture));
                break;
            case "heap":
                LiveHeapKiB = long.Parse(fields[1], CultureInfo.InvariantCulture);
                AllocatedBytes = long.Parse(fields[2], CultureInfo.InvariantCulture);
                break;
            case "end":
                Sample(long.Parse(fields[1], CultureInfo.InvariantCulture));
                PeakRssKiB = long.Parse(fields[2], CultureInfo.InvariantCulture);
                break;
        }
    }
}

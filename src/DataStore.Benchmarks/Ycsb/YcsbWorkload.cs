namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// One of YCSB's core workloads: the share of each operation and how keys are chosen.
/// A: 50% reads, 50% updates. B: 95/5. C: reads only. D: 95% reads of the latest records, 5% inserts.
/// E: 95% scans of 1-100 pairs from a Zipfian key, 5% inserts. F: 50% reads, 50% read-modify-writes.
/// </summary>
public sealed record YcsbWorkload(string Name, double Reads, double Updates, double Inserts, double Scans, double ReadModifyWrites, bool Latest)
{
    /// <summary>The longest scan of workload E.</summary>
    public const int MaxScanLength = 100;

    public static YcsbWorkload A { get; } = new("A", 0.50, 0.50, 0, 0, 0, Latest: false);
    public static YcsbWorkload B { get; } = new("B", 0.95, 0.05, 0, 0, 0, Latest: false);
    public static YcsbWorkload C { get; } = new("C", 1.00, 0, 0, 0, 0, Latest: false);
    public static YcsbWorkload D { get; } = new("D", 0.95, 0, 0.05, 0, 0, Latest: true);
    public static YcsbWorkload E { get; } = new("E", 0, 0, 0.05, 0.95, 0, Latest: false);
    public static YcsbWorkload F { get; } = new("F", 0.50, 0, 0, 0, 0.50, Latest: false);
}

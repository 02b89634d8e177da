namespace DataStore.Benchmarks.Ycsb;

/// <summary>The kinds of operation a YCSB workload mixes; each has its own latency percentiles.</summary>
public enum YcsbOperation
{
    Read,
    Update,
    Insert,
    Scan,
    ReadModifyWrite,
}

namespace DataStore.Benchmarks.Ycsb;

/// <summary>How many records exist: the loaded ones plus every insert so far, shared by the threads of a run.</summary>
public sealed class YcsbRecordCounter(long loaded)
{
    private long _count = loaded;

    /// <summary>The number of the next record to insert.</summary>
    public long Reserve() => Interlocked.Increment(ref _count) - 1;

    /// <summary>A recent record for workload D: <paramref name="age"/> records back from the newest.</summary>
    public long Latest(long age) => Math.Max(0, Volatile.Read(ref _count) - 1 - age);
}

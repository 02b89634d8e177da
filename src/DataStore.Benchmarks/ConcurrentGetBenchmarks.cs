using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks;

/// <summary>
/// Get into a caller buffer from 1, 2 and 4 threads at once on the core suite's preloaded store: the same total of
/// Gets per invocation, shared among the threads, so the time per Get falls as far as reads scale (this machine has
/// 2 cores, so 4 threads show what contention costs rather than more parallelism). Time is per Get, all threads together.
/// </summary>
/// <remarks>
/// Each invocation wakes its threads: on a machine whose cores are busy with other work the wake-up wait (milliseconds at
/// load 45) is part of the time, so compare thread counts only on a quiet machine.
/// </remarks>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 3, iterationCount: 15)]
public class ConcurrentGetBenchmarks : PreloadedStoreBenchmarks
{
    private const int GetsPerInvoke = 4_096;
    private const int Mask = (1 << 16) - 1;

    private byte[][] _hits = [];
    private byte[][] _buffers = [];
    private ParallelOptions _parallel = new();
    private int _next;

    [ParamsSource(nameof(ThreadCounts))]
    public int Threads { get; set; }

    /// <summary>1, 2 and 4 threads; 2 alone in a dry pass (the same code, fewer cases to run; LiteDb's Gets at 4 threads took seconds there).</summary>
    public static IEnumerable<int> ThreadCounts => BenchmarkCommandLine.DryPass ? [2] : [1, 2, 4];

    [GlobalSetup]
    public void Setup()
    {
        OpenStore(BenchmarkData.ValuePool(7));
        var random = new Random(2);
        _hits = Enumerable.Range(0, Mask + 1).Select(_ => BenchmarkData.Key(2L * random.Next(Preloaded))).ToArray();
        _buffers = Enumerable.Range(0, Threads).Select(_ => new byte[256]).ToArray();
        _parallel = new ParallelOptions { MaxDegreeOfParallelism = Threads };
        ThreadPool.GetMinThreads(out _, out var io);
        ThreadPool.SetMinThreads(Math.Max(Threads, Environment.ProcessorCount), io); // every reader at once, not as the pool grows
    }

    [Benchmark(OperationsPerInvoke = GetsPerInvoke)]
    public void Get()
    {
        var perThread = GetsPerInvoke / Threads;
        var start = _next;
        _next += GetsPerInvoke;
        Parallel.For(0, Threads, _parallel, t =>
        {
            var buffer = _buffers[t];
            var first = start + (t * perThread);
            for (var i = 0; i < perThread; i++)
            {
                Store.Get(_hits[(first + i) & Mask], buffer);
            }
        });
    }
}

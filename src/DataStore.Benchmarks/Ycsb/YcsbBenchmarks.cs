using BenchmarkDotNet.Attributes;

namespace DataStore.Benchmarks.Ycsb;

/// <summary>
/// YCSB's core workloads A-F on every backend and on each engine's hand-written peer, from 1 and 4 threads: a store
/// loaded with <see cref="Records"/> records (12-byte keys, 100-byte values; <c>--records N</c>, 10,000 unless given),
/// keys chosen by a scrambled Zipfian (D: the latest records). Time is per operation over all threads, so
/// operations per second are 1 / Mean. Each kind of operation's p50 and p99 latency is a column, and a CSV beside the
/// reports (<see cref="YcsbLatencyReport"/>).
/// </summary>
[MemoryDiagnoser]
[SuiteJob(warmupCount: 2, iterationCount: 10)]
[YcsbConfig]
public class YcsbBenchmarks
{
    private const int OperationsPerInvoke = 1_000;

    private readonly byte[] _valuePool = BenchmarkData.ValuePool(17);
    private string _directory = "";
    private IYcsbTarget _target = null!;
    private YcsbWorker[] _workers = [];
    private string _workload = "";

    [ParamsSource(nameof(Targets))]
    public YcsbTarget Target { get; set; } = null!;

    [Params(1, 4)]
    public int Threads { get; set; }

    [ParamsSource(nameof(RecordCounts))]
    public int Records { get; set; }

    public static IEnumerable<YcsbTarget> Targets => YcsbTarget.All;

    public static IEnumerable<int> RecordCounts => [BenchmarkCommandLine.Records];

    [GlobalSetup]
    public void Setup()
    {
        _directory = BenchmarkData.NewDirectory();
        Directory.CreateDirectory(_directory);
        _target = Target.Open(_directory);
        YcsbLoad.Into(_target, Records, _valuePool);
        var zipfian = new ZipfianGenerator(Records);
        var counter = new YcsbRecordCounter(Records);
        _workers = Enumerable.Range(0, Threads).Select(t => new YcsbWorker(100 + t, zipfian, counter, _valuePool)).ToArray();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        YcsbLatencyReport.Append(Target.Name, Threads, Records, _workload, YcsbLatencies.Merge(_workers.Select(w => w.Latencies)));
        _target.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long A() => Run(YcsbWorkload.A);

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long B() => Run(YcsbWorkload.B);

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long C() => Run(YcsbWorkload.C);

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long D() => Run(YcsbWorkload.D);

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long E() => Run(YcsbWorkload.E);

    [Benchmark(OperationsPerInvoke = OperationsPerInvoke)]
    public long F() => Run(YcsbWorkload.F);

    private long Run(YcsbWorkload workload)
    {
        _workload = workload.Name;
        if (Threads == 1)
        {
            return _workers[0].Run(_target, workload, OperationsPerInvoke);
        }

        var sums = new long[Threads];
        Parallel.For(0, Threads, new ParallelOptions { MaxDegreeOfParallelism = Threads }, t => sums[t] = _workers[t].Run(_target, workload, OperationsPerInvoke / Threads));
        return sums.Sum();
    }
}

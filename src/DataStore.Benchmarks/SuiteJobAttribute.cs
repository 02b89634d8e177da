using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;

namespace DataStore.Benchmarks;

/// <summary>
/// A suite's own job (one launch, its warm-up and iteration counts), used only when the command line shapes no job:
/// <c>--job Dry</c>, <c>--job Short</c>, <c>--iterationCount 3 --warmupCount 1</c> or <c>--inProcess</c> then replaces it
/// instead of running beside it, as they would beside <c>[SimpleJob]</c>.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class SuiteJobAttribute : Attribute, IConfigSource
{
    public SuiteJobAttribute(int warmupCount, int iterationCount)
    {
        Config = BenchmarkCommandLine.JobGiven
            ? ManualConfig.CreateEmpty()
            : ManualConfig.CreateEmpty().AddJob(Job.Default.WithLaunchCount(1).WithWarmupCount(warmupCount).WithIterationCount(iterationCount));
    }

    /// <inheritdoc />
    public IConfig Config { get; }
}

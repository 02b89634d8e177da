using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Jobs;

namespace DataStore.Benchmarks;

/// <summary>
/// A suite's own job (one launch, its warm-up and iteration counts), used only when the command line names no job:
/// <c>--job Dry</c> or <c>--job Short</c> then replaces it instead of running beside it, as <c>[SimpleJob]</c> would.
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

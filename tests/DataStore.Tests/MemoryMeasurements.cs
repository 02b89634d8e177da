namespace DataStore.Tests;

/// <summary>
/// Tests that compare the process's live managed memory (<see cref="GC.GetTotalMemory(bool)"/>) run in this
/// collection, alone, so other tests' allocations do not show in their numbers.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MemoryMeasurements
{
    public const string Name = "Memory measurements";
}

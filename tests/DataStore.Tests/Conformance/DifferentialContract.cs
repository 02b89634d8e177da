namespace DataStore.Tests.Conformance;

/// <summary>
/// Thousands of seeded random operations against the backend and against a sorted model with the memcmp
/// comparer, compared after every step. A failure names its seed and step; set DATASTORE_TEST_SEED to replay it.
/// </summary>
public abstract class DifferentialContract : StoreContract
{
    private const int Steps = 2_500;

    [Fact]
    public void Random_operations_agree_with_a_sorted_model()
    {
        var seed = int.TryParse(Environment.GetEnvironmentVariable("DATASTORE_TEST_SEED"), out var fixedSeed)
            ? fixedSeed
            : Random.Shared.Next();
        var run = new DifferentialRun(Open(), seed);
        for (var step = 0; step < Steps; step++)
        {
            try
            {
                run.Step();
            }
            catch (Exception e)
            {
                Assert.Fail($"{Backend} disagrees with the model at step {step} (seed {seed}; replay with DATASTORE_TEST_SEED={seed}): " +
                    $"{run.LastOperation}: {e.Message}\n{e.StackTrace}");
            }
        }

        TestContext.Current.TestOutputHelper?.WriteLine($"seed {seed}: {Steps} steps agreed");
    }
}

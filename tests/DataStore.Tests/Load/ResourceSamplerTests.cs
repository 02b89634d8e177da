namespace DataStore.Tests.Load;

/// <summary>The load contract's trend check catches a leak and passes a steady run.</summary>
[Collection(MemoryMeasurements.Name)]
public sealed class ResourceSamplerTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Files_left_open_along_the_run_fail_the_trend_check()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "counts handles in /proc/self/fd");
        var leaked = new List<FileStream>();
        try
        {
            using (var sampler = new ResourceSampler(TimeSpan.FromMilliseconds(20)))
            {
                for (var i = 0; i < 60; i++)
                {
                    leaked.Add(File.Create(_directory.Sub($"leak-{i}")));
                    Thread.Sleep(10);
                }

                Thread.Sleep(100);
                var failure = Assert.ThrowsAny<Exception>(() => sampler.AssertFlat("leaking"));
                Assert.Contains("open handles grew along the run", failure.Message, StringComparison.Ordinal);
            }
        }
        finally
        {
            leaked.ForEach(f => f.Dispose());
        }
    }

    [Fact]
    public void Files_closed_as_they_are_used_pass_the_trend_check()
    {
        using var sampler = new ResourceSampler(TimeSpan.FromMilliseconds(20));
        for (var i = 0; i < 60; i++)
        {
            using (File.Create(_directory.Sub($"file-{i}")))
            {
            }

            Thread.Sleep(10);
        }

        Thread.Sleep(100);
        sampler.AssertFlat("steady");
    }

    public void Dispose() => _directory.Dispose();
}

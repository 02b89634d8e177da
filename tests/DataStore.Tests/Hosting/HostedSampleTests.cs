namespace DataStore.Tests.Hosting;

/// <summary>samples/DataStore.HostedSample run as a real process: two keyed stores from appsettings.json, the health check and the meter.</summary>
public sealed class HostedSampleTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void The_hosted_sample_opens_both_stores_reports_healthy_and_counts_operations()
    {
        var (code, output) = ChildProcess.Run(
            [$"--Stores:State:Path={_directory.Sub("state")}", $"--Stores:Catalog:Path={_directory.Sub("catalog")}"],
            TimeSpan.FromSeconds(90), hostAssembly: SampleAssembly());

        Assert.True(code == 0, output);
        Assert.Contains("catalog: Lmdb, 3 mods", output, StringComparison.Ordinal);
        Assert.Contains("state: Sqlite, installed/skyrim/skyui = 5.2", output, StringComparison.Ordinal);
        Assert.Contains("health: Healthy (datastore-state Healthy, datastore-catalog Healthy)", output, StringComparison.Ordinal);
        Assert.Matches(@"metrics: ([4-9]|\d\d+) datastore\.operations", output);
    }

    [Fact]
    public void A_bad_setting_in_the_samples_configuration_fails_its_start_naming_the_setting()
    {
        var (code, output) = ChildProcess.Run(
            [$"--Stores:State:Path={_directory.Sub("state")}", "--Stores:Catalog:Backend=Lmbd"],
            TimeSpan.FromSeconds(90), hostAssembly: SampleAssembly());

        Assert.Equal(1, code);
        Assert.Contains("Stores:Catalog:Backend = 'Lmbd' cannot be read: expected one of Sqlite, InMemory, RocksDb, Lmdb, FileSystem, LiteDb", output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_directory.Sub("state")));
    }

    public void Dispose() => _directory.Dispose();

    private static string SampleAssembly()
    {
        var separator = Path.DirectorySeparatorChar;
        var directory = AppContext.BaseDirectory.Replace(
            $"{separator}tests{separator}DataStore.Tests{separator}", $"{separator}samples{separator}DataStore.HostedSample{separator}", StringComparison.Ordinal);
        var sample = Path.Combine(directory, "DataStore.HostedSample.dll");
        return File.Exists(sample) ? sample : throw new FileNotFoundException($"The hosted sample was not built at {sample}; build the solution.");
    }
}

using System.Diagnostics;

namespace DataStore.Tests.Hosting;

/// <summary>samples/DataStore.HostedSample run as a real process: two keyed stores from appsettings.json, the health check and the meter.</summary>
public sealed class HostedSampleTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void The_hosted_sample_opens_both_stores_reports_healthy_and_counts_operations()
    {
        // Started from another directory, as `dotnet run --project samples/DataStore.HostedSample` is: its appsettings.json
        // (the catalogue is Lmdb there) is found in the app's folder, not the working directory.
        var (code, output) = RunSample(
            [$"--Stores:State:Path={_directory.Sub("state")}", $"--Stores:Catalog:Path={_directory.Sub("catalog")}"]);

        Assert.True(code == 0, output);
        Assert.Contains($"stores: state at {_directory.Sub("state")}, catalog at {_directory.Sub("catalog")}", output, StringComparison.Ordinal);
        Assert.Contains("catalog: Lmdb, 3 mods", output, StringComparison.Ordinal);
        Assert.Contains("state: Sqlite, installed/skyrim/skyui = 5.2", output, StringComparison.Ordinal);
        Assert.Contains("health: Healthy (datastore-state Healthy, datastore-catalog Healthy)", output, StringComparison.Ordinal);
        Assert.Matches(@"metrics: ([4-9]|\d\d+) datastore\.operations", output);
    }

    [Fact]
    public void A_bad_setting_in_the_samples_configuration_fails_its_start_naming_the_setting()
    {
        var (code, output) = RunSample(
            [$"--Stores:State:Path={_directory.Sub("state")}", "--Stores:State:Timeout=thirty", "--Stores:Catalog:Backend=Lmbd"]);

        Assert.Equal(1, code);
        Assert.Contains("error: The DataStore setting Stores:State:Timeout = 'thirty' cannot be read", output, StringComparison.Ordinal);
        Assert.Contains("error: The DataStore setting Stores:Catalog:Backend = 'Lmbd' cannot be read: expected one of Sqlite, InMemory, RocksDb, Lmdb, FileSystem, LiteDb", output, StringComparison.Ordinal);
        Assert.False(Directory.Exists(_directory.Sub("state")));
    }

    public void Dispose() => _directory.Dispose();

    // The sample as a real process whose working directory is a fresh directory of this test (not the test's output folder).
    private (int Code, string Output) RunSample(IEnumerable<string> args)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = Directory.CreateDirectory(_directory.Sub("cwd")).FullName,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(SampleAssembly());
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var error = process.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
        var output = process.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
        if (!process.WaitForExit(TimeSpan.FromSeconds(90)))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail("the hosted sample did not exit within 90 s");
        }

        process.WaitForExit();
        return (process.ExitCode, $"{output.GetAwaiter().GetResult()}\nstderr: {error.GetAwaiter().GetResult()}");
    }

    private static string SampleAssembly()
    {
        var separator = Path.DirectorySeparatorChar;
        var directory = AppContext.BaseDirectory.Replace(
            $"{separator}tests{separator}DataStore.Tests{separator}", $"{separator}samples{separator}DataStore.HostedSample{separator}", StringComparison.Ordinal);
        var sample = Path.Combine(directory, "DataStore.HostedSample.dll");
        return File.Exists(sample) ? sample : throw new FileNotFoundException($"The hosted sample was not built at {sample}; build the solution.");
    }
}

namespace DataStore.Tests.Cli;

/// <summary><c>datastore verify</c>, run as a real process (which runs the check in a child of its own), on every backend present.</summary>
public sealed class CliVerifyTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void A_good_store_verifies_with_its_pairs_bytes_and_checksum_and_exit_code_0(StoreBackend backend)
    {
        var pairs = MaintenanceStores.Sample(500).ToList();
        CliBackends.CreateStore(Store, backend, pairs);

        var verify = DatastoreTool.RunOk(_directory.Path, "verify", "--store", Store);

        Assert.Equal("504", MaintenanceStores.Field(verify, "pairs"));
        Assert.Equal(pairs.Sum(p => (long)p.Key.Length + p.Value.Length).ToString(System.Globalization.CultureInfo.InvariantCulture), MaintenanceStores.Field(verify, "bytes"));
        Assert.Matches("^[0-9a-f]{64}$", MaintenanceStores.Field(verify, "checksum"));
        Assert.Contains($"verified {backend} store", verify.Lines[^1], StringComparison.Ordinal);
        Assert.Contains("no problems", verify.Lines[^1], StringComparison.Ordinal);
        Assert.DoesNotContain("datastore:", verify.Error, StringComparison.Ordinal); // progress lines only
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void A_damaged_store_fails_verify_with_exit_code_4_and_the_problem_printed(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, MaintenanceStores.Sample(3000));
        if (backend == StoreBackend.RocksDb)
        {
            using var store = KeyValueStore.Open(Store);
            store.Compact(); // the pairs move from the write-ahead log into table files
        }

        StoreDamage.Damage(Store, backend);

        var verify = DatastoreTool.Run(_directory.Path, ["verify", "--store", Store, "--quiet"]);

        verify.AssertFailed(4, "");
        var problems = verify.Lines.Where(l => l.StartsWith("problem: ", StringComparison.Ordinal)).ToList();
        Assert.True(problems.Count > 0 || verify.Error.Contains("the engine crashed while reading the store", StringComparison.Ordinal), $"stdout: {verify.Text} stderr: {verify.Error}");
    }

    [Fact]
    public void An_engine_that_crashes_on_a_damaged_file_becomes_a_one_line_report_and_exit_code_4()
    {
        Assert.SkipWhen(OperatingSystem.IsWindows(), "the damage was chosen against LMDB on Linux");
        var (code, output) = ChildProcess.Run(["fill", Store, "Lmdb", "-", "x", "3000", "200"]);
        Assert.True(code == 0, output);
        StoreDamage.ScatterLmdb(Store, seed: 1);
        var count = DatastoreTool.Run(_directory.Path, ["count", "--store", Store]);
        Assert.SkipUnless(count.ExitCode > 128, $"this LMDB did not crash on the damage (count exited {count.ExitCode}: {count.Error.Trim()})");

        var verify = DatastoreTool.Run(_directory.Path, ["verify", "--store", Store, "--quiet"]);

        verify.AssertFailed(4, "the engine crashed while reading the Lmdb store");
        Assert.Matches(@"'[^']+': signal \d+ \(SIG[A-Z]+\); the store is probably damaged", verify.Error);
        var verbose = DatastoreTool.Run(_directory.Path, ["verify", "--store", Store, "--verbose", "--quiet"]);
        Assert.Equal(4, verbose.ExitCode);
        Assert.StartsWith("datastore: the engine crashed while reading the Lmdb store", verbose.Error, StringComparison.Ordinal);
        Assert.Contains("the engine printed", verbose.Error, StringComparison.Ordinal);
        Assert.Contains("   at ", verbose.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Verify_json_still_prints_an_unhealthy_report_when_the_verifying_child_dies()
    {
        Assert.SkipUnless(OperatingSystem.IsLinux(), "the verifying child is found through /proc");
        // The child waits for a LiteDb store whose owner lock a process holds without answering; killed while it waits,
        // it dies as an engine crashing on a damaged file would.
        KeyValueStore.Open(new DataStoreOptions { Path = Store, Backend = StoreBackend.LiteDb }).Dispose();
        using var holder = ChildProcess.Start(["hold-owner-lock", Store, "LiteDb", "-", "60000"]);
        holder.WaitForLine(l => l.StartsWith("LOCKED", StringComparison.Ordinal), TimeSpan.FromSeconds(60));
        using var tool = DatastoreTool.Start(_directory.Path, ["verify", "--store", Store, "--json", "--quiet", "--timeout", "60"]);
        var output = tool.StandardOutput.ReadToEndAsync(TestContext.Current.CancellationToken);
        var error = tool.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);

        using var child = WaitForVerifyingChild(Store, TimeSpan.FromSeconds(30));
        child.Kill();
        Assert.True(tool.WaitForExit(TimeSpan.FromSeconds(30)), "verify did not end after its child was killed");
        tool.WaitForExit();

        Assert.Equal(4, tool.ExitCode);
        Assert.Contains("the engine crashed while reading the store: signal 9 (SIGKILL)", await error, StringComparison.Ordinal);
        var line = Assert.Single((await output).Split('\n', StringSplitOptions.RemoveEmptyEntries));
        var report = System.Text.Json.JsonDocument.Parse(line).RootElement;
        Assert.False(report.GetProperty("healthy").GetBoolean());
        Assert.Contains("signal 9 (SIGKILL)", Assert.Single(report.GetProperty("problems").EnumerateArray()).GetString(), StringComparison.Ordinal);
        Assert.False(report.TryGetProperty("backend", out _)); // the child died before it opened the store, so nobody knows
    }

    [Fact]
    public void Verify_of_a_missing_store_is_a_store_error_from_the_child_in_one_line()
    {
        DatastoreTool.Run(_directory.Path, ["verify", "--store", _directory.Sub("nothing")]).AssertFailed(3, "no store at");
    }

    public void Dispose() => _directory.Dispose();

    private static System.Diagnostics.Process WaitForVerifyingChild(string store, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (DateTime.UtcNow < deadline)
        {
            foreach (var process in System.Diagnostics.Process.GetProcesses())
            {
                try
                {
                    var arguments = File.ReadAllText($"/proc/{process.Id}/cmdline").Split('\0');
                    if (arguments.Contains("--verify-child") && arguments.Contains(store))
                    {
                        return process;
                    }
                }
                catch (IOException)
                {
                    // the process ended meanwhile
                }

                process.Dispose();
            }

            Thread.Sleep(100);
        }

        Assert.Fail($"no verifying child of {store} appeared within {timeout}");
        return null!;
    }
}

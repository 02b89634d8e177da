namespace DataStore.Tests.Cli;

/// <summary>Every bad input gets its documented exit code and one line on stderr, against every backend present.</summary>
public sealed class CliErrorTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Fact]
    public void An_unknown_command_is_a_usage_error()
    {
        DatastoreTool.Run(_directory.Path, ["frobnicate", "--store", Store]).AssertFailed(2, "unknown command or argument 'frobnicate'");
    }

    [Fact]
    public void A_missing_argument_and_no_store_named_are_usage_errors()
    {
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store]).AssertFailed(2, "missing argument 'key' for 'datastore get'");
        DatastoreTool.Run(_directory.Path, ["import", "--store", Store]).AssertFailed(2, "missing argument 'file' for 'datastore import'");
        DatastoreTool.Run(_directory.Path, ["get", "key"]).AssertFailed(2, "no store named");
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "--backend", "InMemory", "key"]).AssertFailed(2, "--backend 'InMemory' is not a persistent backend");
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "--backend", "Sqlight", "key"]).AssertFailed(2, "Sqlight");
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void A_missing_store_is_a_store_error_and_is_not_created(StoreBackend backend)
    {
        var missing = _directory.Sub("no-such-store");
        DatastoreTool.Run(_directory.Path, ["get", "--store", missing, "key"]).AssertFailed(3, "no store at");
        DatastoreTool.Run(_directory.Path, ["put", "--store", missing, "key", "value"]).AssertFailed(3, "pass --backend NAME to create one");
        DatastoreTool.Run(_directory.Path, ["count", "--store", missing, "--backend", backend.ToString()]).AssertFailed(3, "no store at");
        Assert.False(Directory.Exists(missing));
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Bad_hex_and_bad_base64_are_usage_errors(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("a", "1"));
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "--hex", "0g"]).AssertFailed(2, "'0g' is not valid hex");
        DatastoreTool.Run(_directory.Path, ["put", "--store", Store, "--hex", "00", "abc"]).AssertFailed(2, "'abc' is not valid hex");
        DatastoreTool.Run(_directory.Path, ["scan", "--store", Store, "--base64", "%%"]).AssertFailed(2, "is not valid base64");
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "--hex", "--base64", "00"]).AssertFailed(2, "cannot be used together");
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void A_value_file_that_does_not_exist_is_a_usage_error_and_writes_nothing(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("a", "1"));
        DatastoreTool.Run(_directory.Path, ["put", "--store", Store, "a", "--file", "missing.bin"]).AssertFailed(2, "the value file 'missing.bin' does not exist");
        Assert.Equal("1", DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "a").Text);
    }

    [Theory]
    [MemberData(nameof(CliBackends.AvailableWithAnother), MemberType = typeof(CliBackends))]
    public void A_store_of_another_backend_is_a_store_error_naming_both(StoreBackend backend, StoreBackend other)
    {
        CliBackends.CreateStore(Store, backend, ("a", "1"));
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "--backend", other.ToString(), "a"])
            .AssertFailed(3, $"holds a {backend} store, not a {other} store");
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void An_absent_key_exits_1_and_verbose_adds_the_stack_trace(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("a", "1"));
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "b"]).AssertFailed(1, "key 'b' not found");

        var verbose = DatastoreTool.Run(_directory.Path, ["get", "--verbose", "--store", Store, "--hex", "zz"]);
        Assert.Equal(2, verbose.ExitCode);
        Assert.StartsWith("datastore: the key 'zz' is not valid hex", verbose.Error, StringComparison.Ordinal);
        Assert.Contains("   at ", verbose.Error, StringComparison.Ordinal);
    }

    [Fact]
    public void A_write_lock_held_past_the_timeout_is_a_store_error_and_a_bad_timeout_a_usage_error()
    {
        CliBackends.CreateStore(Store, StoreBackend.Sqlite, ("a", "1"));
        using (var holder = ChildProcess.Start(["hold-sqlite-write-lock", Store, "-", "-", "60000"]))
        {
            holder.WaitForLine(l => l == "LOCKED", TimeSpan.FromSeconds(30));
            DatastoreTool.Run(_directory.Path, ["put", "--store", Store, "--timeout", "0.3", "a", "2"]).AssertFailed(3, Store);
        } // killed: its transaction never commits

        DatastoreTool.Run(_directory.Path, ["put", "--store", Store, "--timeout", "soon", "a", "2"]).AssertFailed(2, "--timeout 'soon'");
        Assert.Equal("1", DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "a").Text);
    }

    public void Dispose() => _directory.Dispose();
}

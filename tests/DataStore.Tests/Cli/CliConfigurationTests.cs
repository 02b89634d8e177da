namespace DataStore.Tests.Cli;

/// <summary>The tool finds the store as the library does: appsettings.json, --config, DATASTORE__ variables, --store.</summary>
public sealed class CliConfigurationTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void The_store_comes_from_appsettings_json_in_the_working_directory()
    {
        var store = _directory.Sub("app-store");
        CliBackends.CreateStore(store, StoreBackend.Sqlite, ("k", "from appsettings"));
        File.WriteAllText(_directory.Sub("appsettings.json"), $$"""{ "DataStore": { "Path": "{{store.Replace("\\", "\\\\", StringComparison.Ordinal)}}" } }""");
        Assert.Equal("from appsettings", DatastoreTool.RunOk(_directory.Path, "get", "k").Text);
    }

    [Fact]
    public void The_store_comes_from_a_config_file_and_DATASTORE_variables_override_it()
    {
        var configured = _directory.Sub("configured");
        var fromEnvironment = _directory.Sub("from-env");
        CliBackends.CreateStore(configured, StoreBackend.Sqlite, ("k", "configured"));
        CliBackends.CreateStore(fromEnvironment, StoreBackend.Sqlite, ("k", "environment"));
        Directory.CreateDirectory(_directory.Sub("app"));
        File.WriteAllText(_directory.Sub("app/appsettings.json"), """{ "DataStore": { "Path": "configured" } }""");

        Assert.Equal("configured", DatastoreTool.RunOk(_directory.Path, "get", "--config", "app/appsettings.json", "k").Text);
        var environment = new Dictionary<string, string> { ["DATASTORE__PATH"] = fromEnvironment };
        Assert.Equal("environment", DatastoreTool.Run(_directory.Path, ["get", "--config", "app/appsettings.json", "k"], environment: environment).Text);
        Assert.Equal("configured", DatastoreTool.Run(_directory.Path, ["get", "--store", configured, "k"], environment: environment).Text);
        DatastoreTool.Run(_directory.Path, ["get", "--config", "app/missing.json", "k"]).AssertFailed(2, "'app/missing.json' does not exist");
    }

    [Fact]
    public void A_new_store_is_created_only_by_put_with_a_backend_from_the_command_line_or_configuration()
    {
        var environment = new Dictionary<string, string> { ["DATASTORE__PATH"] = _directory.Sub("new"), ["DATASTORE__BACKEND"] = "Sqlite" };
        DatastoreTool.Run(_directory.Path, ["get", "k"], environment: environment).AssertFailed(3, "no store at");
        Assert.Equal(0, DatastoreTool.Run(_directory.Path, ["put", "k", "v"], environment: environment).ExitCode);
        Assert.Equal("v", DatastoreTool.Run(_directory.Path, ["get", "k"], environment: environment).Text);
    }

    public void Dispose() => _directory.Dispose();
}

using Microsoft.Extensions.Configuration;

namespace DataStore.Tests.Configuration;

/// <summary>DataStoreOptions binds from appsettings.json sections and DATASTORE__ environment variables.</summary>
public sealed class DataStoreOptionsBindingTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void Options_bind_from_an_appsettings_json_section()
    {
        var json = _directory.Sub("appsettings.json");
        File.WriteAllText(json, """
            { "DataStore": { "Path": "/data/store", "Backend": "InMemory", "Durability": "Durable", "Timeout": "00:00:05", "SyncInterval": "00:00:02", "CreateIfMissing": false } }
            """);
        var configuration = new ConfigurationBuilder().AddJsonFile(json).Build();

        var options = DataStoreOptions.FromConfiguration(configuration.GetSection(DataStoreOptions.SectionName));

        Assert.Equal("/data/store", options.Path);
        Assert.Equal(StoreBackend.InMemory, options.Backend);
        Assert.Equal(Durability.Durable, options.Durability);
        Assert.Equal(TimeSpan.FromSeconds(5), options.Timeout);
        Assert.Equal(TimeSpan.FromSeconds(2), options.SyncInterval);
        Assert.False(options.CreateIfMissing);
    }

    [Fact]
    public void Unset_options_keep_their_defaults()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("DataStore:Path", "store")]).Build();
        var options = DataStoreOptions.FromConfiguration(configuration.GetSection("DataStore"));
        Assert.Null(options.Backend);
        Assert.Null(options.Durability);
        Assert.Equal(TimeSpan.FromSeconds(30), options.Timeout);
        Assert.True(options.CreateIfMissing);
    }

    [Fact]
    public void Options_bind_from_DATASTORE_environment_variables()
    {
        // A prefix unique to this test keeps parallel tests from seeing each other's variables.
        var prefix = $"DSTEST{Guid.NewGuid():N}_";
        Environment.SetEnvironmentVariable($"{prefix}DATASTORE__PATH", _directory.Sub("env-store"));
        Environment.SetEnvironmentVariable($"{prefix}DATASTORE__DURABILITY", "Durable");
        try
        {
            var configuration = new ConfigurationBuilder().AddEnvironmentVariables(prefix).Build();
            var options = DataStoreOptions.FromConfiguration(configuration.GetSection("DataStore"));
            Assert.Equal(_directory.Sub("env-store"), options.Path);
            Assert.Equal(Durability.Durable, options.Durability);

            using var store = KeyValueStore.Open(options);
            Assert.Equal(StoreBackend.Sqlite, store.Backend);
            Assert.Equal(Durability.Durable, store.Durability);
        }
        finally
        {
            Environment.SetEnvironmentVariable($"{prefix}DATASTORE__PATH", null);
            Environment.SetEnvironmentVariable($"{prefix}DATASTORE__DURABILITY", null);
        }
    }

    [Fact]
    public void A_misspelled_enum_value_is_a_clear_configuration_error()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("DataStore:Backend", "Sqlight")]).Build();
        var error = Assert.Throws<InvalidOperationException>(() => DataStoreOptions.FromConfiguration(configuration.GetSection("DataStore")));
        Assert.Contains("Sqlight", error.Message + error.InnerException?.Message);
    }

    [Theory]
    [InlineData("", "Path")]
    [InlineData("00:00:00", "SyncInterval")]
    public void Validate_names_the_invalid_setting(string path, string setting)
    {
        var options = new DataStoreOptions { Path = path == "" ? "" : "store", SyncInterval = path == "" ? TimeSpan.FromSeconds(1) : TimeSpan.Zero };
        Assert.Contains(setting, Assert.Throws<ArgumentException>(options.Validate).Message);
    }

    public void Dispose() => _directory.Dispose();
}

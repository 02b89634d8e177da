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
        Assert.Contains("DataStore:Backend = 'Sqlight'", error.Message, StringComparison.Ordinal);
        Assert.Contains("one of Sqlite, InMemory, RocksDb, Lmdb, FileSystem, LiteDb", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("30", 30_000)]
    [InlineData("0.5", 500)]
    [InlineData("00:00:30", 30_000)]
    [InlineData("1.00:00:00", 86_400_000)]
    public void Timeout_and_SyncInterval_take_seconds_or_a_duration(string text, double milliseconds)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("DataStore:Timeout", text), new("DataStore:SyncInterval", text)]).Build();
        var options = DataStoreOptions.FromConfiguration(configuration.GetSection("DataStore"));
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), options.Timeout);
        Assert.Equal(TimeSpan.FromMilliseconds(milliseconds), options.SyncInterval);
    }

    [Fact]
    public void An_unreadable_duration_names_the_setting_and_what_it_takes()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("DataStore:Timeout", "thirty")]).Build();
        var error = Assert.Throws<InvalidOperationException>(() => DataStoreOptions.FromConfiguration(configuration.GetSection("DataStore")));
        Assert.Equal("The DataStore setting DataStore:Timeout = 'thirty' cannot be read: expected a number of seconds or a duration such as 00:00:30.", error.Message);
    }

    [Fact]
    public void The_root_configuration_is_refused_so_PATH_never_binds_as_the_store_path()
    {
        var list = $"{_directory.Sub("a")}{Path.PathSeparator}{_directory.Sub("b")}";
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("PATH", list)]).Build();
        var error = Assert.Throws<InvalidOperationException>(() => DataStoreOptions.FromConfiguration(configuration));
        Assert.Contains("root configuration", error.Message, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    [Fact]
    public void A_section_holding_keys_DataStore_does_not_know_is_refused_naming_them()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection([new("App:Path", "store"), new("App:Timout", "5"), new("App:Theme", "dark")]).Build();
        var error = Assert.Throws<InvalidOperationException>(() => DataStoreOptions.FromConfiguration(configuration.GetSection("App")));
        Assert.Contains("'Timout'", error.Message, StringComparison.Ordinal);
        Assert.Contains("'Theme'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_path_list_is_refused_and_creates_nothing()
    {
        var list = $"{_directory.Sub("a")}{Path.PathSeparator}{_directory.Sub("b")}";
        var error = Assert.Throws<ArgumentException>(() => KeyValueStore.Open(new DataStoreOptions { Path = list }));
        Assert.Equal("Path", error.ParamName);
        Assert.Contains("one directory", error.Message, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
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

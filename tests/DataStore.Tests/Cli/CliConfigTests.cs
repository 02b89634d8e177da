namespace DataStore.Tests.Cli;

/// <summary><c>datastore config</c>, run as a real process: prints the settings, turns the change feed on and off, and is refused while the store is open.</summary>
public sealed class CliConfigTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Fact]
    public void Config_prints_the_settings_turns_the_feed_on_and_off_and_is_refused_while_the_store_is_open()
    {
        KeyValueStore.Open(new DataStoreOptions { Path = Store, Backend = StoreBackend.Sqlite }).Dispose();

        Assert.Contains("change feed: off", DatastoreTool.RunOk(_directory.Path, "config", "--store", Store).Text, StringComparison.Ordinal);
        var on = DatastoreTool.RunOk(_directory.Path, "config", "--store", Store, "--change-feed", "on", "--feed-retention", "500", "--json").Text.Trim();
        Assert.Equal($$"""{"path":"{{Store}}","backend":"Sqlite","formatVersion":4,"changeFeed":true,"feedRetention":500,"changed":true}""", on);

        using (var open = KeyValueStore.Open(Store))
        {
            Assert.Equal(0, open.ChangeSequence()); // the feed is on for every process that opens the store now
            DatastoreTool.Run(_directory.Path, ["config", "--store", Store, "--change-feed", "off"])
                .AssertFailed(3, "other processes have it open");
        }

        var off = DatastoreTool.RunOk(_directory.Path, "config", "--store", Store, "--change-feed", "off").Text;
        Assert.Contains("change feed: off", off, StringComparison.Ordinal);
        Assert.Contains("format version: 4", off, StringComparison.Ordinal); // a Sqlite store's page checksums keep it at 4
        DatastoreTool.Run(_directory.Path, ["config", "--store", Store, "--change-feed", "maybe"]).AssertFailed(2, "on or off");
    }

    public void Dispose() => _directory.Dispose();
}

using DataStore.Tests.Cli;

namespace DataStore.Tests.Packed;

/// <summary><c>datastore pack</c>, and the read commands on a Packed store, as a real process.</summary>
public sealed class PackedCliTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Source => _directory.Sub("source");

    private string Target => _directory.Sub("packed");

    [Fact]
    public void Pack_builds_a_Packed_store_holding_every_pair_of_the_store()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, MaintenanceStores.Sample(100));

        var pack = DatastoreTool.RunOk(_directory.Path, "pack", "--store", Source, "--to", Target);

        Assert.Contains("packed 104 pairs from Sqlite store", pack.Text, StringComparison.Ordinal);
        Assert.Equal(MaintenanceStores.Pairs(Source), MaintenanceStores.Pairs(Target));
        using (var packed = KeyValueStore.Open(Target))
        {
            Assert.Equal(StoreBackend.Packed, packed.Backend);
        }

        var verifySource = DatastoreTool.RunOk(_directory.Path, "verify", "--store", Source);
        var verifyPacked = DatastoreTool.RunOk(_directory.Path, "verify", "--store", Target);
        Assert.Equal(MaintenanceStores.Field(verifySource, "checksum"), MaintenanceStores.Field(verifyPacked, "checksum"));
    }

    [Fact]
    public void Pack_from_a_dump_and_a_rebuild_over_the_same_Packed_store()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, ("a", "1"), ("b", "2"));
        DatastoreTool.RunOk(_directory.Path, "pack", "--store", Source, "--to", Target);
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, ("c", "3"));
        DatastoreTool.RunOk(_directory.Path, "export", "--store", Source, "store.dump");

        var pack = DatastoreTool.RunOk(_directory.Path, "pack", "--from-dump", "store.dump", "--to", Target);

        Assert.Contains("packed 3 pairs from dump", pack.Text, StringComparison.Ordinal);
        Assert.Equal(MaintenanceStores.Pairs(Source), MaintenanceStores.Pairs(Target));
    }

    [Fact]
    public void Pack_refuses_another_backends_store_and_a_missing_dump_and_writes_are_refused_on_a_Packed_store()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, ("a", "1"));
        var lmdb = _directory.Sub("lmdb");
        CliBackends.CreateStore(lmdb, StoreBackend.Sqlite, ("b", "2"));

        DatastoreTool.Run(_directory.Path, ["pack", "--store", Source, "--to", lmdb]).AssertFailed(3, "not a Packed store");
        DatastoreTool.Run(_directory.Path, ["pack", "--from-dump", "missing.dump", "--to", Target]).AssertFailed(2, "does not exist");
        DatastoreTool.RunOk(_directory.Path, "pack", "--store", Source, "--to", Target);
        DatastoreTool.Run(_directory.Path, ["put", "--store", Target, "x", "1"]).AssertFailed(3, "read-only");
        Assert.Equal(MaintenanceStores.Pairs(Source), MaintenanceStores.Pairs(Target));
    }

    [Fact]
    public void Info_on_a_Packed_store_shows_what_its_file_holds_as_text_and_as_json()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, MaintenanceStores.Sample(100));
        DatastoreTool.RunOk(_directory.Path, "pack", "--store", Source, "--to", Target);
        var expected = PackedStore.Describe(Target);

        var text = DatastoreTool.RunOk(_directory.Path, "info", "--store", Target).Text;
        var json = DatastoreTool.RunOk(_directory.Path, "info", "--json", "--store", Target).Text;
        var sqlite = DatastoreTool.RunOk(_directory.Path, "info", "--json", "--store", Source).Text;

        Assert.Equal(104, expected.Pairs);
        Assert.True(expected.Blocks > 0 && expected.IndexBytes > 0 && expected.HashTableBytes > 0, expected.ToString());
        Assert.Equal(new FileInfo(Path.Combine(Target, "store.packed")).Length, expected.FileBytes);
        Assert.Contains($"packed file: format {expected.FormatVersion}, 104 pairs", text, StringComparison.Ordinal);
        Assert.Contains($"in {expected.Blocks} blocks; index ", text, StringComparison.Ordinal);
        using var document = System.Text.Json.JsonDocument.Parse(json);
        var packed = document.RootElement.GetProperty("packed");
        Assert.Equal(104, packed.GetProperty("pairs").GetInt64());
        Assert.Equal(expected.HashTableBytes, packed.GetProperty("hashTableBytes").GetInt64());
        Assert.DoesNotContain("\"packed\"", sqlite, StringComparison.Ordinal);
    }

    [Fact]
    public void Export_and_migrate_read_from_a_Packed_store()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, MaintenanceStores.Sample(50));
        DatastoreTool.RunOk(_directory.Path, "pack", "--store", Source, "--to", Target);

        DatastoreTool.RunOk(_directory.Path, "export", "--store", Target, "packed.dump");
        DatastoreTool.RunOk(_directory.Path, "import", "--store", _directory.Sub("imported"), "--backend", "Lmdb", "packed.dump");
        DatastoreTool.RunOk(_directory.Path, "migrate", "--store", Target, "--to", _directory.Sub("migrated"), "--to-backend", "Sqlite");

        var expected = MaintenanceStores.Pairs(Source);
        Assert.Equal(expected, MaintenanceStores.Pairs(_directory.Sub("imported")));
        Assert.Equal(expected, MaintenanceStores.Pairs(_directory.Sub("migrated")));
    }

    public void Dispose() => _directory.Dispose();
}

namespace DataStore.Tests.Cli;

/// <summary><c>datastore migrate</c> between every ordered pair of the persistent backends present, as a real process.</summary>
public sealed class CliMigrateTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Source => _directory.Sub("source");

    [Theory]
    [MemberData(nameof(CliBackends.OrderedPairs), MemberType = typeof(CliBackends))]
    public void Migrate_copies_every_pair_to_the_other_backend_and_reports_the_shared_checksum(StoreBackend from, StoreBackend to)
    {
        CliBackends.CreateStore(Source, from, MaintenanceStores.Sample(100));
        var target = _directory.Sub("target");

        var migrate = DatastoreTool.RunOk(_directory.Path, "migrate", "--store", Source, "--to", target, "--to-backend", to.ToString());

        Assert.Contains($"migrated 104 pairs", migrate.Text, StringComparison.Ordinal);
        Assert.Contains($"to {to} store", migrate.Text, StringComparison.Ordinal);
        Assert.Equal(MaintenanceStores.Pairs(Source), MaintenanceStores.Pairs(target));
        using var copy = KeyValueStore.Open(target);
        Assert.Equal(to, copy.Backend);
    }

    [Fact]
    public void Migrate_refuses_an_existing_destination_and_a_bad_backend()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, ("a", "1"));
        var occupied = _directory.Sub("occupied");
        Directory.CreateDirectory(occupied);
        File.WriteAllText(Path.Combine(occupied, "notes.txt"), "mine");

        DatastoreTool.Run(_directory.Path, ["migrate", "--store", Source, "--to", occupied, "--to-backend", "Lmdb"]).AssertFailed(2, "already exists");
        DatastoreTool.Run(_directory.Path, ["migrate", "--store", Source, "--to", Source, "--to-backend", "Lmdb"]).AssertFailed(2, "already exists");
        DatastoreTool.Run(_directory.Path, ["migrate", "--store", Source, "--to", _directory.Sub("t"), "--to-backend", "Paper"]).AssertFailed(2, "--to-backend 'Paper'");
        DatastoreTool.Run(_directory.Path, ["migrate", "--store", Source, "--to-backend", "Lmdb"]).AssertFailed(2, "--to");
        DatastoreTool.Run(_directory.Path, ["migrate", "--quiet", "--store", Source, "--to", Path.Combine(Source, "inside"), "--to-backend", "Lmdb"]).AssertFailed(2, "");
        Assert.False(Directory.Exists(Path.Combine(Source, "inside")));
        Assert.Equal(["notes.txt"], Directory.EnumerateFileSystemEntries(occupied).Select(Path.GetFileName));
    }

    public void Dispose() => _directory.Dispose();
}

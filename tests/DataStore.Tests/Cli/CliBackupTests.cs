using System.Buffers.Binary;

namespace DataStore.Tests.Cli;

/// <summary><c>datastore backup</c>, run as a real process, on every backend present; with a second process writing where the backend is shared.</summary>
public sealed class CliBackupTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Source => _directory.Sub("source");

    private string Copy => _directory.Sub("backup");

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void A_backup_opens_as_a_store_of_the_same_backend_and_verifies(StoreBackend backend)
    {
        CliBackends.CreateStore(Source, backend, MaintenanceStores.Sample(200));

        var backup = DatastoreTool.RunOk(_directory.Path, "backup", "--store", Source, Copy);

        Assert.Contains($"backed up {backend} store", backup.Text, StringComparison.Ordinal);
        Assert.Equal(
            MaintenanceStores.VerifiedChecksum(_directory.Path, Source, 204),
            MaintenanceStores.VerifiedChecksum(_directory.Path, Copy, 204));
        using var copy = KeyValueStore.Open(Copy);
        Assert.Equal(backend, copy.Backend);
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void A_backup_taken_while_a_second_process_writes_holds_an_unbroken_prefix_of_its_writes(StoreBackend backend)
    {
        CliBackends.CreateStore(Source, backend, MaintenanceStores.Sample(100));
        using (var store = KeyValueStore.Open(Source))
        {
            Assert.SkipUnless(
                store.Capabilities.HasFlag(StoreCapabilities.SharedAcrossProcesses),
                $"{backend} is open in one process at a time: the tool would wait for the writer, so its online backup is tested with a writer thread in the library's tests");
        }

        using var writer = ChildProcess.Start(["put-loop", Source, backend.ToString(), "-", "w", "1000000"]);
        writer.WaitForLine(l => l == "ACK 200", TimeSpan.FromSeconds(30));

        DatastoreTool.RunOk(_directory.Path, "backup", "--store", Source, Copy);
        writer.KillHard();

        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = Copy, CreateIfMissing = false });
        var written = copy.EnumeratePrefix("w/"u8.ToArray()).Select(p => (Key: BinaryPrimitives.ReadInt32BigEndian(p.Key.AsSpan(2)), Value: BinaryPrimitives.ReadInt32BigEndian(p.Value))).ToList();
        Assert.True(written.Count >= 200, $"the backup holds {written.Count} of the writer's keys; 200 were acknowledged before it began");
        Assert.Equal(Enumerable.Range(1, written.Count), written.Select(w => w.Key));
        Assert.All(written, w => Assert.Equal(w.Key, w.Value));
        Assert.Equal(100 + 4, copy.EnumerateKeys([]).Count() - written.Count);
        copy.Dispose();
        MaintenanceStores.VerifiedChecksum(_directory.Path, Copy, 104 + written.Count);
    }

    [Fact]
    public void A_backup_into_an_existing_directory_is_a_usage_error_that_touches_nothing()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, ("a", "1"));
        Directory.CreateDirectory(Copy);
        File.WriteAllText(Path.Combine(Copy, "keep.txt"), "mine");

        DatastoreTool.Run(_directory.Path, ["backup", "--store", Source, Copy]).AssertFailed(2, "already exists");
        Assert.Equal(["keep.txt"], Directory.EnumerateFileSystemEntries(Copy).Select(Path.GetFileName));
    }

    public void Dispose() => _directory.Dispose();
}

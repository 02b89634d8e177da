using System.Diagnostics;

namespace DataStore.Tests.Cli;

/// <summary><c>datastore export</c> and <c>import</c>, run as real processes, on every backend present.</summary>
public sealed class CliExportImportTests : IDisposable
{
    private const int SampleSize = 300;
    private readonly TemporaryDirectory _directory = new();

    private string Source => _directory.Sub("source");

    [Theory]
    [MemberData(nameof(CliBackends.AvailableWithAnother), MemberType = typeof(CliBackends))]
    public void Export_then_import_into_another_backend_gives_an_identical_store(StoreBackend backend, StoreBackend other)
    {
        if (!KeyValueStore.IsAvailable(other))
        {
            other = StoreBackend.Sqlite;
        }

        CliBackends.CreateStore(Source, backend, MaintenanceStores.Sample(SampleSize));
        var export = DatastoreTool.RunOk(_directory.Path, "export", "--store", Source, "store.dump");
        Assert.True(File.Exists(_directory.Sub("store.dump")));
        Assert.Contains($"exported {SampleSize + 4} pairs", export.Text, StringComparison.Ordinal);

        var copy = _directory.Sub("copy");
        var import = DatastoreTool.RunOk(_directory.Path, "import", "--store", copy, "--backend", other.ToString(), "store.dump");
        Assert.Contains($"imported {SampleSize + 4} pairs", import.Text, StringComparison.Ordinal);

        var checksum = MaintenanceStores.SummaryChecksum(export.Text);
        Assert.Equal(checksum, MaintenanceStores.SummaryChecksum(import.Text));
        Assert.Equal(checksum, MaintenanceStores.VerifiedChecksum(_directory.Path, copy, SampleSize + 4));
        Assert.Equal(MaintenanceStores.Pairs(Source), MaintenanceStores.Pairs(copy));
        using var opened = KeyValueStore.Open(copy);
        Assert.Equal(other, opened.Backend);
    }

    [Fact]
    public void Export_to_stdout_pipes_into_import_from_stdin_with_the_summaries_on_stderr()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, MaintenanceStores.Sample(50));
        var export = DatastoreTool.RunOk(_directory.Path, "export", "--store", Source);
        Assert.Contains("exported 54 pairs", export.Error, StringComparison.Ordinal);

        var copy = _directory.Sub("copy");
        var import = DatastoreTool.Run(_directory.Path, ["import", "--store", copy, "--backend", "FileSystem", "-"], stdin: export.Output);
        Assert.True(import.ExitCode == 0, import.Error);
        Assert.Equal(MaintenanceStores.SummaryChecksum(export.Error), MaintenanceStores.SummaryChecksum(import.Text));
        Assert.Equal(MaintenanceStores.Pairs(Source), MaintenanceStores.Pairs(copy));
    }

    [Fact]
    public void A_damaged_or_truncated_dump_is_refused_in_one_line_and_leaves_no_store()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, MaintenanceStores.Sample(200));
        var dump = DatastoreTool.RunOk(_directory.Path, "export", "--store", Source).Output;

        var flipped = (byte[])dump.Clone();
        flipped[dump.Length / 2] ^= 0x40;
        File.WriteAllBytes(_directory.Sub("flipped.dump"), flipped);
        File.WriteAllBytes(_directory.Sub("truncated.dump"), dump[..(dump.Length * 2 / 3)]);
        File.WriteAllBytes(_directory.Sub("garbage.dump"), [.. Enumerable.Repeat((byte)0xff, 4096)]);
        foreach (var name in new[] { "flipped.dump", "truncated.dump", "garbage.dump" })
        {
            var target = _directory.Sub($"from-{name}");
            DatastoreTool.Run(_directory.Path, ["import", "--quiet", "--store", target, "--backend", "Sqlite", name]).AssertFailed(4, "");
            Assert.False(Directory.Exists(target) && Directory.EnumerateFileSystemEntries(target).Any(), $"{name} left a store behind");
        }
    }

    [Fact]
    public void A_missing_dump_an_existing_store_and_an_existing_dump_file_are_usage_errors()
    {
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, ("a", "1"));
        DatastoreTool.Run(_directory.Path, ["import", "--store", _directory.Sub("new"), "--backend", "Sqlite", "missing.dump"])
            .AssertFailed(2, "the dump file 'missing.dump' does not exist");
        Assert.False(Directory.Exists(_directory.Sub("new")));

        File.WriteAllText(_directory.Sub("existing.dump"), "keep me");
        DatastoreTool.Run(_directory.Path, ["export", "--store", Source, "existing.dump"]).AssertFailed(2, "already exists");
        Assert.Equal("keep me", File.ReadAllText(_directory.Sub("existing.dump")));

        DatastoreTool.Run(_directory.Path, ["import", "--store", Source, "--backend", "Sqlite", "existing.dump"]).AssertFailed(2, "already exists");
        DatastoreTool.Run(_directory.Path, ["import", "--store", _directory.Sub("new"), "existing.dump"]).AssertFailed(2, "--backend");
        Assert.Equal(["61=31"], MaintenanceStores.Pairs(Source));
    }

    [Theory]
    [InlineData("INT", StoreBackend.Sqlite)]
    [InlineData("TERM", StoreBackend.FileSystem)]
    public async Task A_signal_during_a_piped_import_is_acknowledged_at_once_exits_130_and_leaves_no_store(string signal, StoreBackend backend)
    {
        Assert.SkipWhen(OperatingSystem.IsWindows(), "sends the signal with kill(1)");
        CliBackends.CreateStore(Source, StoreBackend.Sqlite, MaintenanceStores.Sample(8000));
        var dump = DatastoreTool.RunOk(_directory.Path, "export", "--store", Source).Output;
        Assert.True(dump.Length > 300_000, $"the dump is only {dump.Length} bytes");

        var target = _directory.Sub("interrupted");
        using var import = DatastoreTool.Start(_directory.Path, ["import", "--store", target, "--backend", backend.ToString(), "-"]);
        var error = import.StandardError.ReadToEndAsync(TestContext.Current.CancellationToken);
        // Far more than a pipe holds: once written, the tool is reading the dump, its signal handlers in place.
        import.StandardInput.BaseStream.Write(dump.AsSpan(0, 256 * 1024));
        import.StandardInput.BaseStream.Flush();
        using (var kill = Process.Start("kill", ["-" + signal, import.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            kill.WaitForExit();
        }

        // stdin stays open: the tool must stop while a read of the pipe is still waiting for more.
        Assert.True(import.WaitForExit(TimeSpan.FromSeconds(30)), $"the import did not stop after SIG{signal}");
        Assert.Equal(130, import.ExitCode);
        var text = await error;
        Assert.Contains($"SIG{signal} received, cancelling", text, StringComparison.Ordinal);
        Assert.Contains("datastore: cancelled", text, StringComparison.Ordinal);
        Assert.False(Directory.Exists(target) && Directory.EnumerateFileSystemEntries(target).Any(), "the cancelled import left a store behind");
    }

    public void Dispose() => _directory.Dispose();
}

namespace DataStore.Tests.Cli;

/// <summary>The built <c>datastore</c> tool, run as a real process, against every backend this build has.</summary>
public sealed class CliRoundTripTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Binary_values_round_trip_through_a_file_stdin_hex_and_base64(StoreBackend backend)
    {
        var every = Enumerable.Range(0, 256).Select(i => (byte)i).Concat(new byte[] { 0, 0xff, 0x0a, 0x0d }).ToArray();
        File.WriteAllBytes(_directory.Sub("value.bin"), every);

        DatastoreTool.RunOk(_directory.Path, "put", "--store", Store, "--backend", backend.ToString(), "--hex", "00ff0a", "--file", "value.bin");
        var raw = DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "--hex", "00ff0a");
        Assert.Equal(Convert.ToHexStringLower(every), raw.Text.TrimEnd('\n'));

        var fromStdin = DatastoreTool.Run(_directory.Path, ["put", "--store", Store, "--base64", "AAE="], stdin: every);
        Assert.Equal(0, fromStdin.ExitCode);
        Assert.Equal(every, Base64Line(DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "--base64", "AAE=").Output));

        DatastoreTool.RunOk(_directory.Path, "put", "--store", Store, "text-key", "héllo wörld");
        Assert.Equal("héllo wörld"u8.ToArray(), DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "text-key").Output);

        var empty = DatastoreTool.Run(_directory.Path, ["put", "--store", Store, "empty"], stdin: []);
        Assert.Equal(0, empty.ExitCode);
        Assert.Empty(DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "empty").Output);

        using var store = KeyValueStore.Open(Store);
        Assert.Equal(backend, store.Backend);
        Assert.Equal(every, store.Get([0x00, 0xff, 0x0a]));
        Assert.Equal(every, store.Get([0x00, 0x01]));
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Scan_prints_keys_in_unsigned_byte_order_by_prefix_range_and_limit(StoreBackend backend)
    {
        string[] sorted = ["01", "61", "6100", "6162", "61ff", "80", "ff", "ff00"];
        string[] written = ["ff00", "6162", "01", "80", "ff", "61ff", "6100", "61"];
        CliBackends.CreateStore(Store, backend, written.Select(k => (Convert.FromHexString(k), Convert.FromHexString(k))));

        Assert.Equal(sorted, DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--hex", "--keys-only").Lines);
        Assert.Equal(["61\t61", "6100\t6100", "6162\t6162", "61ff\t61ff"], DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--hex", "61").Lines);
        Assert.Equal(["6100", "6162", "61ff"], DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--hex", "-k", "--from", "6100", "--to", "80").Lines);
        Assert.Equal(["80", "ff", "ff00"], DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--hex", "-k", "--from", "7f").Lines);
        Assert.Equal(["01", "61"], DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--hex", "-k", "--limit", "2").Lines);
        Assert.Equal("8", DatastoreTool.RunOk(_directory.Path, "count", "--store", Store).Text.Trim());
        Assert.Equal("4", DatastoreTool.RunOk(_directory.Path, "count", "--store", Store, "--hex", "61").Text.Trim());
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Delete_prefix_removes_exactly_one_group_and_delete_removes_one_key(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("mods/a/1", "x"), ("mods/a/2", "x"), ("mods/ab", "x"), ("mods/b/1", "x"));

        Assert.Equal("2", DatastoreTool.RunOk(_directory.Path, "delete", "--store", Store, "--prefix", "mods/a/").Text.Trim());
        Assert.Equal(["mods/ab", "mods/b/1"], DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--keys-only").Lines);
        var has = DatastoreTool.Run(_directory.Path, ["has", "--store", Store, "mods/a/1"]);
        Assert.Equal((1, "false"), (has.ExitCode, has.Text.Trim()));
        Assert.Equal("true", DatastoreTool.RunOk(_directory.Path, "has", "--store", Store, "mods/ab").Text.Trim());

        DatastoreTool.RunOk(_directory.Path, "delete", "--store", Store, "mods/ab");
        DatastoreTool.RunOk(_directory.Path, "delete", "--store", Store, "mods/ab"); // absent: no error
        DatastoreTool.Run(_directory.Path, ["get", "--store", Store, "mods/ab"]).AssertFailed(1, "'mods/ab' not found");
        Assert.Equal(["mods/b/1\tx"], DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store).Lines);
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Info_names_the_backend_format_version_path_keys_and_size(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("a", "1"), ("b", "2"), ("c", "3"));

        var lines = DatastoreTool.RunOk(_directory.Path, "info", "--store", Store).Lines;

        // Stdout is a pipe here: plain "name: value" lines, no table borders or colour codes.
        Assert.All(lines, l => Assert.DoesNotMatch(@"[\u2500-\u257f\u001b]", l));
        string Row(string name) => lines.Single(l => l.StartsWith($"{name}: ", StringComparison.Ordinal));
        Assert.Equal($"backend: {backend}", Row("backend"));
        Assert.Equal($"format version: {(backend == StoreBackend.Sqlite ? 4 : 2)}", Row("format version")); // 4: Sqlite page checksums (ADR 0023)
        Assert.Equal("keys: 3", Row("keys"));
        Assert.Equal($"path: {Store}", Row("path"));
        Assert.Matches(@"^size on disk: [1-9][0-9]* bytes", Row("size on disk"));
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Base64Line(byte[] output) => Convert.FromBase64String(System.Text.Encoding.ASCII.GetString(output).Trim());
}

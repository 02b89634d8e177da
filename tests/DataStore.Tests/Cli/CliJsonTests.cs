using System.Text.Json;

namespace DataStore.Tests.Cli;

/// <summary><c>--json</c> output of the real tool process, parsed as JSON, against every backend this build has.</summary>
public sealed class CliJsonTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string Store => _directory.Sub("store");

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Get_and_scan_print_one_object_per_pair(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("mods/b", "say \"hi\"\tthere"), ("mods/a", "héllo"), ("other", "x"));

        var get = Parse(DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "--json", "mods/b")).Single();
        Assert.Equal(("mods/b", "say \"hi\"\tthere"), (get.GetProperty("key").GetString(), get.GetProperty("value").GetString()));

        var scan = Parse(DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--json", "mods/"));
        Assert.Equal(["mods/a", "mods/b"], scan.Select(p => p.GetProperty("key").GetString()));
        Assert.Equal(["héllo", "say \"hi\"\tthere"], scan.Select(p => p.GetProperty("value").GetString()));

        var keys = Parse(DatastoreTool.RunOk(_directory.Path, "scan", "--store", Store, "--json", "--hex", "--keys-only", "--limit", "2"));
        Assert.Equal(["6d6f64732f61", "6d6f64732f62"], keys.Select(p => p.GetProperty("key").GetString()));
        Assert.All(keys, p => Assert.False(p.TryGetProperty("value", out _)));
    }

    [Theory]
    [MemberData(nameof(CliBackends.Available), MemberType = typeof(CliBackends))]
    public void Count_info_and_verify_print_one_object(StoreBackend backend)
    {
        CliBackends.CreateStore(Store, backend, ("mods/a", "1"), ("mods/b", "22"), ("other", "333"));

        var count = Parse(DatastoreTool.RunOk(_directory.Path, "count", "--store", Store, "--json", "mods/")).Single();
        Assert.Equal(("mods/", 2), (count.GetProperty("prefix").GetString(), count.GetProperty("count").GetInt64()));

        var info = Parse(DatastoreTool.RunOk(_directory.Path, "info", "--store", Store, "--json")).Single();
        Assert.Equal(backend.ToString(), info.GetProperty("backend").GetString());
        Assert.Equal(Store, info.GetProperty("path").GetString());
        Assert.Equal(backend == StoreBackend.Sqlite ? 4 : 2, info.GetProperty("formatVersion").GetInt32()); // 4: Sqlite page checksums (ADR 0023)
        Assert.Equal(3, info.GetProperty("keys").GetInt64());
        Assert.True(info.GetProperty("sizeOnDisk").GetInt64() > 0);
        Assert.Contains("Persistent", info.GetProperty("capabilities").EnumerateArray().Select(c => c.GetString()));
        var alone = backend is StoreBackend.RocksDb or StoreBackend.LiteDb ? "Owner" : "Direct"; // the tool is the only process
        Assert.Equal(alone, info.GetProperty("sharing").GetString());
        Assert.Equal(alone == "Owner", info.TryGetProperty("ownerProcessId", out var owner)); // a direct store has no owner process
        Assert.True(alone == "Direct" || owner.GetInt32() > 0);

        var verify = DatastoreTool.RunOk(_directory.Path, "verify", "--store", Store, "--json", "--quiet");
        var report = Parse(verify).Single(); // the "verified ..." summary went to stderr; bytes count keys and values
        Assert.Contains("verified", verify.Error, StringComparison.Ordinal);
        Assert.Equal((3, 23), (report.GetProperty("pairs").GetInt64(), report.GetProperty("bytes").GetInt64()));
        Assert.Equal(64, report.GetProperty("checksum").GetString()!.Length);
        Assert.True(report.GetProperty("healthy").GetBoolean());
        Assert.Empty(report.GetProperty("problems").EnumerateArray());
    }

    [Fact]
    public void A_value_that_is_not_utf8_is_refused_naming_its_key_never_replaced()
    {
        CliBackends.CreateStore(Store, StoreBackend.Sqlite, [("a"u8.ToArray(), "1"u8.ToArray()), ("b"u8.ToArray(), [0xff, 0x00])]);

        var scan = DatastoreTool.Run(_directory.Path, ["scan", "--store", Store, "--json"]);
        scan.AssertFailed(2, "value of key 62 (hex) is not valid UTF-8");
        Assert.Equal("a", Parse(scan).Single().GetProperty("key").GetString()); // the pairs before it were printed whole

        var base64 = Parse(DatastoreTool.RunOk(_directory.Path, "get", "--store", Store, "--json", "--base64", "Yg==")).Single();
        Assert.Equal([0xff, 0x00], Convert.FromBase64String(base64.GetProperty("value").GetString()!));
    }

    public void Dispose() => _directory.Dispose();

    private static JsonElement[] Parse(ToolResult result) =>
        [.. result.Lines.Select(line => JsonDocument.Parse(line).RootElement.Clone())];
}

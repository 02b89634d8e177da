using System.Text.Json;

namespace DataStore.Tests.Conformance;

/// <summary>Rule 11: a store directory records its backend, format version and settings, so any process opens it without being told.</summary>
public abstract class SelfDescribingContract : StoreContract
{
    private const string Rule = "11: self-describing stores";

    [Fact]
    public void The_manifest_records_backend_format_version_and_durability()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, Rule);
        Open(o => o.Durability = Durability.Durable).Dispose();

        using var manifest = JsonDocument.Parse(File.ReadAllText(Path.Combine(StorePath, "datastore.json")));
        Assert.Equal(Backend.ToString(), manifest.RootElement.GetProperty("backend").GetString());
        Assert.Equal(Backend == StoreBackend.Sqlite ? 4 : 2, manifest.RootElement.GetProperty("formatVersion").GetInt32()); // 4: Sqlite page checksums (ADR 0023)
        Assert.Equal("Durable", manifest.RootElement.GetProperty("durability").GetString());
        Assert.True(manifest.RootElement.GetProperty("checksums").GetBoolean()); // ADR 0014: new stores check every pair

    }

    [Fact]
    public void Opening_with_no_backend_named_uses_the_manifests_backend_and_settings()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, Rule);
        var store = Open(o => o.Durability = Durability.Durable);
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Dispose();

        using var reopened = KeyValueStore.Open(StorePath);
        Assert.Equal(Backend, reopened.Backend);
        Assert.Equal(Durability.Durable, reopened.Durability);
        StoreAssert.Holds(reopened, Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void Another_process_opens_the_store_without_being_told_the_backend()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, Rule);
        var store = Open();
        store.Put("key"u8, "value"u8);
        store.Dispose(); // closed first: opening a store two processes hold at once is rule 8, not this rule

        var (code, output) = ChildProcess.Run(["open", StorePath, "-", "-"]);
        Assert.Equal(0, code);
        Assert.Contains($"OPEN {Backend} Relaxed", output);
    }

    [Fact]
    public void Processes_creating_the_same_store_at_once_agree_on_one_manifest()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, Rule);
        var children = Enumerable.Range(0, 4)
            .Select(_ => ChildProcess.Start(["open", StorePath, Backend.ToString(), "-"]))
            .ToList();
        foreach (var child in children)
        {
            Assert.True(child.WaitForExit(TimeSpan.FromSeconds(60)) == 0, child.Output);
            child.Dispose();
        }

        Assert.Single(System.IO.Directory.EnumerateFiles(StorePath, "datastore.json*"));
        using var store = KeyValueStore.Open(StorePath);
        Assert.Equal(Backend, store.Backend);
    }

    [Fact]
    public void Exists_and_Read_describe_a_store_from_its_manifest_without_opening_it()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, Rule);
        Assert.False(KeyValueStore.Exists(StorePath));
        var store = Open(o => o.Durability = Durability.Durable);
        store.Put("key"u8, "value"u8);

        var info = StoreConfiguration.Read(StorePath); // while this process has it open
        Assert.Equal((Path.GetFullPath(StorePath), Backend, Backend == StoreBackend.Sqlite ? 4 : 2, Durability.Durable),
            (info.Path, info.Backend, info.FormatVersion, info.Durability));
        store.Dispose();

        var files = Files();
        Assert.True(KeyValueStore.Exists(StorePath));
        Assert.Equal(Backend, StoreConfiguration.Read(StorePath).Backend);
        Assert.Equal(files, Files()); // nothing created, removed or rewritten: the store was not opened
    }

    private List<(string Name, long Length, DateTime Written)> Files() =>
        [.. new DirectoryInfo(StorePath).EnumerateFiles("*", SearchOption.AllDirectories).Select(f => (f.FullName, f.Length, f.LastWriteTimeUtc)).OrderBy(f => f.FullName, StringComparer.Ordinal)];
}

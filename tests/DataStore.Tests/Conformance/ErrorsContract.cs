using System.Buffers;

namespace DataStore.Tests.Conformance;

/// <summary>Rule 10: bad arguments raise ArgumentException naming the problem; an unusable store raises a DataStoreException naming path, backend and cause; nothing is lost.</summary>
public abstract class ErrorsContract : StoreContract
{
    [Fact]
    public void An_empty_key_is_rejected_by_every_point_operation_and_nothing_changes()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));

        Assert.Contains("at least 1 byte", Assert.Throws<ArgumentException>(() => store.Put([], Bytes.Of(1))).Message);
        Assert.Throws<ArgumentException>(() => store.Get([]));
        Assert.Throws<ArgumentException>(() => store.Get([], new byte[4]));
        Assert.Throws<ArgumentException>(() => store.HaveKey([]));
        Assert.Throws<ArgumentException>(() => store.Delete([]));
        Assert.Throws<ArgumentException>(() => new WriteBatch().Put([], []));
        Assert.Throws<ArgumentException>(() => new WriteBatch().RequireAbsent([]));
        StoreAssert.KeysEqual([[1]], StoreAssert.Scan(store, []));
    }

    [Fact]
    public void Null_arguments_raise_ArgumentNullException()
    {
        var store = Open();
        Assert.Throws<ArgumentNullException>(() => store.Write(null!));
        Assert.Throws<ArgumentNullException>(() => store.TryWrite(null!, out _));
        Assert.Throws<ArgumentNullException>(() => store.Get(Bytes.Of(1), (IBufferWriter<byte>)null!));
        Assert.Throws<ArgumentNullException>(() => KeyValueStore.Open((DataStoreOptions)null!));
    }

    [Fact]
    public void An_empty_prefix_delete_and_a_reversed_range_are_rejected_and_nothing_is_deleted()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        Assert.Contains("non-empty prefix", Assert.Throws<ArgumentException>(() => store.DeletePrefix([])).Message);
        Assert.Contains("sorts after", Assert.Throws<ArgumentException>(() => store.DeleteRange(Bytes.Of(2), Bytes.Of(1))).Message);
        Assert.Throws<ArgumentException>(() => store.ScanRange(Bytes.Of(2), Bytes.Of(1)));
        Assert.Throws<ArgumentException>(() => new WriteBatch().DeletePrefix([]));
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void Invalid_options_are_rejected_with_the_setting_named()
    {
        if (CapabilitiesOf(Backend).HasFlag(StoreCapabilities.Persistent))
        {
            Assert.Contains("Path", Assert.Throws<ArgumentException>(() => KeyValueStore.Open(new DataStoreOptions { Backend = Backend })).Message);
        }

        Assert.Contains("Timeout", Assert.Throws<ArgumentException>(() => Open(o => o.Timeout = TimeSpan.FromSeconds(-1))).Message);
        Assert.Contains("Backend", Assert.Throws<ArgumentException>(() => Open(o => o.Backend = (StoreBackend)42)).Message);
    }

    [Fact]
    public void A_failed_precondition_names_the_store_and_leaves_the_data_intact()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        var error = Assert.Throws<PreconditionFailedException>(() =>
            store.Write(new WriteBatch().RequireAbsent(Bytes.Of(1)).Put(Bytes.Of(1), Bytes.Of(2)).Put(Bytes.Of(3), Bytes.Of(3))));
        Assert.Equal(Backend, error.Backend);
        Assert.Contains("01", error.Message);
        StoreAssert.KeysEqual([[1]], StoreAssert.Scan(store, []));
        StoreAssert.Holds(store, Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void Opening_a_store_as_another_backend_fails_naming_both_and_the_data_stays()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, "10: a directory made by another backend");
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Dispose();

        var other = Backend == StoreBackend.Lmdb ? StoreBackend.RocksDb : StoreBackend.Lmdb;
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options() is var o ? Set(o, other) : o));
        Assert.Equal(StoreFailure.WrongBackend, error.Cause);
        Assert.Contains(Backend.ToString(), error.Message);
        Assert.Contains(other.ToString(), error.Message);
        Assert.Contains(StorePath, error.Message);

        StoreAssert.Holds(Open(), Bytes.Of(1), Bytes.Of(1));
    }

    [Fact]
    public void A_backend_this_build_lacks_is_refused_without_leaving_a_store_behind()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, "10: an unavailable backend");
        var lacking = Enum.GetValues<StoreBackend>().Where(b => !KeyValueStore.IsAvailable(b)).ToList();
        if (lacking.Count == 0)
        {
            Assert.Skip("every backend is in this build, so there is no lacking backend to refuse.");
        }

        var error = Assert.Throws<DataStoreException>(() => KeyValueStore.Open(Options() is var o ? Set(o, lacking[0]) : o));
        Assert.Equal(StoreFailure.Unavailable, error.Cause);
        Assert.False(System.IO.Directory.Exists(StorePath), "a refused open created the store directory");
    }

    [Fact]
    public void A_store_of_a_newer_format_version_is_refused()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, "10: a newer format version");
        Open().Dispose();
        var manifest = Path.Combine(StorePath, "datastore.json");
        File.WriteAllText(manifest, System.Text.RegularExpressions.Regex.Replace(File.ReadAllText(manifest), "\"formatVersion\": [0-9]+", "\"formatVersion\": 99"));

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options()));
        Assert.Equal(StoreFailure.NewerFormat, error.Cause);
        Assert.Contains("99", error.Message);
    }

    [Fact]
    public void A_damaged_manifest_is_reported_as_corrupt()
    {
        RequireCapability(StoreCapabilities.SelfDescribing, "10: corruption");
        Open().Dispose();
        File.WriteAllText(Path.Combine(StorePath, "datastore.json"), "{ not json");
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options()));
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(StorePath, error.Message);
    }

    [Theory]
    [InlineData("a member's name")]
    [InlineData("a value")]
    public void A_manifest_with_one_changed_name_or_value_is_reported_as_corrupt(string change)
    {
        RequireCapability(StoreCapabilities.SelfDescribing, "10: corruption");
        Open().Dispose();
        var manifest = Path.Combine(StorePath, "datastore.json");
        var text = File.ReadAllText(manifest);
        var damaged = change == "a value"
            ? System.Text.RegularExpressions.Regex.Replace(text, "\"(Relaxed|Durable)\"", m => m.Value == "\"Relaxed\"" ? "\"Durable\"" : "\"Relaxed\"")
            : text.Replace("\"checksums\"", "\"checksumr\"", StringComparison.Ordinal);
        Assert.NotEqual(text, damaged);

        File.WriteAllText(manifest, damaged);
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options()));
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(manifest, error.Message);
    }

    [Fact]
    public void A_missing_store_is_not_created_when_CreateIfMissing_is_false()
    {
        RequireCapability(StoreCapabilities.Persistent, "10: a missing store");
        var error = Assert.Throws<DataStoreException>(() => Open(o => o.CreateIfMissing = false));
        Assert.Contains("CreateIfMissing", error.Message);
        Assert.False(System.IO.Directory.Exists(StorePath) && System.IO.Directory.EnumerateFiles(StorePath).Any());
    }

    [Fact]
    public void A_read_only_store_raises_AccessDenied_naming_the_path_and_the_data_stays()
    {
        RequireCapability(StoreCapabilities.Persistent, "10: permission denied");
        if (OperatingSystem.IsWindows())
        {
            Assert.Skip("the permission cases use Unix file modes");
            return;
        }

        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(1));
        store.Dispose();
        AccessDeniedProbe.AssertWriteDenied(StorePath, Backend, Directory);

        using var reopened = KeyValueStore.Open(Options());
        StoreAssert.KeysEqual([[1]], StoreAssert.Scan(reopened, []));
    }

    [Fact]
    public void Creating_a_store_in_a_read_only_directory_raises_AccessDenied()
    {
        RequireCapability(StoreCapabilities.Persistent, "10: permission denied");
        if (OperatingSystem.IsWindows())
        {
            Assert.Skip("the permission cases use Unix file modes");
            return;
        }

        System.IO.Directory.CreateDirectory(StorePath);
        AccessDeniedProbe.AssertWriteDenied(StorePath, Backend, Directory);

        Assert.Empty(System.IO.Directory.EnumerateFileSystemEntries(StorePath));
    }

    private static DataStoreOptions Set(DataStoreOptions options, StoreBackend backend)
    {
        options.Backend = backend;
        return options;
    }
}

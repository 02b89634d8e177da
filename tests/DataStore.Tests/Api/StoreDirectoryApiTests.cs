using DataStore.Tests.Conformance;

namespace DataStore.Tests.Api;

/// <summary>KeyValueStore.Exists, StoreConfiguration.Read and CountKeys: their arguments, and what they say of a directory that holds no store.</summary>
public sealed class StoreDirectoryApiTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void A_null_or_empty_path_or_store_is_an_ArgumentException()
    {
        Assert.Throws<ArgumentNullException>(() => KeyValueStore.Exists(null!));
        Assert.Throws<ArgumentException>(() => KeyValueStore.Exists(""));
        Assert.Throws<ArgumentNullException>(() => StoreConfiguration.Read(null!));
        Assert.Throws<ArgumentException>(() => StoreConfiguration.Read(""));
        Assert.Throws<ArgumentNullException>(() => KeyValueStoreExtensions.CountKeys(null!, []));
    }

    [Fact]
    public void A_missing_or_empty_directory_is_no_store_and_Read_names_it()
    {
        var missing = _directory.Sub("missing");
        Directory.CreateDirectory(_directory.Sub("empty"));
        Assert.False(KeyValueStore.Exists(missing));
        Assert.False(KeyValueStore.Exists(_directory.Sub("empty")));

        var error = Assert.Throws<DataStoreException>(() => StoreConfiguration.Read(missing));
        Assert.Equal(StoreFailure.Io, error.Cause);
        Assert.Contains($"'{missing}'", error.Message, StringComparison.Ordinal);
        Assert.Contains("no datastore.json", error.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(missing)); // nothing created
    }

    [Fact]
    public void A_directory_that_lost_its_manifest_is_no_store_to_Exists_and_Open_still_refuses_it()
    {
        var path = _directory.Sub("lost");
        using (var store = KeyValueStore.Open(path))
        {
            store.Put("key"u8, "value"u8);
        }

        File.Delete(Path.Combine(path, "datastore.json"));
        Assert.False(KeyValueStore.Exists(path));
        Assert.Equal(StoreFailure.Corrupt, Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(path)).Cause); // ADR 0013
    }

    [Fact]
    public void A_damaged_or_newer_manifest_is_a_StoreFormatException_naming_the_store()
    {
        var damaged = _directory.Sub("damaged");
        Directory.CreateDirectory(damaged);
        File.WriteAllText(Path.Combine(damaged, "datastore.json"), "{ not json");
        var error = Assert.Throws<StoreFormatException>(() => StoreConfiguration.Read(damaged));
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(damaged, error.Message, StringComparison.Ordinal);

        var newer = _directory.Sub("newer");
        Directory.CreateDirectory(newer);
        File.WriteAllText(Path.Combine(newer, "datastore.json"), """{ "backend": "Lmdb", "formatVersion": 99, "durability": "Relaxed" }""");
        Assert.True(KeyValueStore.Exists(newer));
        Assert.Equal(StoreFailure.NewerFormat, Assert.Throws<StoreFormatException>(() => StoreConfiguration.Read(newer)).Cause);
    }

    [Fact]
    public void A_relative_path_is_read_as_a_full_path()
    {
        var path = _directory.Sub("relative");
        KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb }).Dispose();
        var relative = Path.GetRelativePath(Environment.CurrentDirectory, path);
        Assert.True(KeyValueStore.Exists(relative));
        var info = StoreConfiguration.Read(relative);
        Assert.Equal((path, StoreBackend.Lmdb, Durability.Relaxed), (info.Path, info.Backend, info.Durability));
    }
}

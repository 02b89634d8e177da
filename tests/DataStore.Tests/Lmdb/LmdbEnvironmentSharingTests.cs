using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>LMDB allows one environment per file and process: opening the same store twice in a process shares it.</summary>
public sealed class LmdbEnvironmentSharingTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void The_same_store_opened_twice_in_one_process_shares_one_environment()
    {
        var relaxed = KeyValueStore.Open(Options(Durability.Relaxed));
        using var durable = KeyValueStore.Open(Options(Durability.Durable));
        Assert.Same(((DataStore.Lmdb.LmdbStore)relaxed).Environment, ((DataStore.Lmdb.LmdbStore)durable).Environment);

        relaxed.Put("a"u8, "1"u8);
        StoreAssert.Holds(durable, "a"u8.ToArray(), "1"u8.ToArray());
        using (var cursor = relaxed.ScanPrefix([]))
        {
            durable.Put("b"u8, "2"u8);
            Assert.Single(StoreAssert.Drain(cursor));
        }

        relaxed.Dispose();
        Assert.Throws<ObjectDisposedException>(() => relaxed.Get("a"u8));
        durable.Put("c"u8, "3"u8);
        StoreAssert.KeysEqual(["a"u8.ToArray(), "b"u8.ToArray(), "c"u8.ToArray()], StoreAssert.Scan(durable, []));
    }

    [Fact]
    public void A_scan_outliving_its_store_keeps_the_environment_until_it_is_disposed()
    {
        var store = KeyValueStore.Open(Options(Durability.Relaxed));
        store.Put("a"u8, "1"u8);
        var cursor = store.ScanPrefix([]);
        store.Dispose();

        Assert.True(cursor.MoveNext());
        Assert.Equal("a"u8.ToArray(), cursor.Key.ToArray());
        cursor.Dispose();

        using var reopened = KeyValueStore.Open(Options(Durability.Relaxed));
        StoreAssert.Holds(reopened, "a"u8.ToArray(), "1"u8.ToArray());
    }

    [Fact]
    public void Opening_and_disposing_from_many_threads_at_once_leaves_the_store_usable()
    {
        Parallel.For(0, 16, i =>
        {
            using var store = KeyValueStore.Open(Options(Durability.Relaxed));
            store.Put([(byte)i], [(byte)i]);
            StoreAssert.Holds(store, [(byte)i], [(byte)i]);
        });

        using var reopened = KeyValueStore.Open(Options(Durability.Relaxed));
        Assert.Equal(16, StoreAssert.Scan(reopened, []).Count);
    }

    [Fact]
    public void A_store_written_in_another_LMDB_format_is_refused_naming_both()
    {
        var (format, ours) = StoreWithOnePair();
        File.WriteAllText(format, "LMDB 9.9");
        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(Options(Durability.Relaxed)));
        Assert.Contains("LMDB 9.9", error.Message);
        Assert.Contains(StorePath, error.Message);

        File.WriteAllText(format, ours);
        using var reopened = KeyValueStore.Open(Options(Durability.Relaxed));
        StoreAssert.Holds(reopened, "a"u8.ToArray(), "1"u8.ToArray());
    }

    [Fact]
    public void An_empty_format_record_opens_with_the_loaded_library_and_is_written_again()
    {
        // Another process creating the same store at the same moment, or a crash, must never leave a record that
        // refuses the store as "written in the  file format".
        var (format, ours) = StoreWithOnePair();
        File.WriteAllText(format, "");
        using (var reopened = KeyValueStore.Open(Options(Durability.Relaxed)))
        {
            StoreAssert.Holds(reopened, "a"u8.ToArray(), "1"u8.ToArray());
        }

        Assert.Equal(ours, File.ReadAllText(format));
        Assert.Empty(Directory.GetFiles(StorePath, "*.tmp"));
    }

    public void Dispose() => _directory.Dispose();

    // Writes a store holding a=1 and returns its format record's path and contents.
    private (string Path, string Contents) StoreWithOnePair()
    {
        using (var store = KeyValueStore.Open(Options(Durability.Relaxed)))
        {
            store.Put("a"u8, "1"u8);
        }

        var format = Path.Combine(StorePath, DataStore.Lmdb.Files.LmdbFormatRecord.FileName);
        return (format, File.ReadAllText(format));
    }

    private DataStoreOptions Options(Durability durability) =>
        new() { Path = StorePath, Backend = StoreBackend.Lmdb, Durability = durability, Timeout = TimeSpan.FromSeconds(10) };
}

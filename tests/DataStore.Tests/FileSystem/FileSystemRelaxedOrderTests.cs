using DataStore.FileSystem;
using DataStore.Tests.Conformance;
using Microsoft.Extensions.Logging.Abstractions;

namespace DataStore.Tests.FileSystem;

/// <summary>
/// Relaxed ordering (ADR 0008): the Puts a batch makes durable before its journal are synced in one step. Directory
/// fsyncs one after the other are not one step: a power loss between two of them keeps the Puts of the directory synced
/// first and loses those of the other, whichever came first (the power-loss test, seed 1271742136: P 167 lost, P 170 kept).
/// </summary>
public sealed class FileSystemRelaxedOrderTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_batch_after_relaxed_puts_in_two_directories_syncs_them_in_one_file_system_sync()
    {
        using var store = OpenWithoutBackgroundSync();
        for (var i = 0; i < 12; i++)
        {
            store.Put(Bytes.Utf8($"a/{i:D2}"), Bytes.Utf8("1"));
            store.Put(Bytes.Utf8($"b/{i:D2}"), Bytes.Utf8("1")); // past 16 files the store directory splits into a/ and b/
        }

        store.Write(new WriteBatch().Put(Bytes.Utf8("c/0"), Bytes.Utf8("1"))); // syncs the split and every Put so far
        store.Put(Bytes.Utf8("a/new"), Bytes.Utf8("2"));
        store.Put(Bytes.Utf8("b/new"), Bytes.Utf8("2"));

        // Before, the two leaves' fsyncs (data/x61, data/x62), one after the other.
        Assert.Equal([Path.GetFullPath(StorePath)], SyncedBeforeTheJournal(store));
        Assert.Equal("2", System.Text.Encoding.UTF8.GetString(store.Get(Bytes.Utf8("b/new"))!));
    }

    [Fact]
    public void A_batch_after_relaxed_puts_in_one_directory_syncs_only_that_directory()
    {
        using var store = OpenWithoutBackgroundSync();
        store.Write(new WriteBatch().Put(Bytes.Utf8("c/0"), Bytes.Utf8("1")));
        store.Put(Bytes.Utf8("a/0"), Bytes.Utf8("1"));
        store.Put(Bytes.Utf8("a/1"), Bytes.Utf8("1"));

        Assert.Equal([Path.Combine(Path.GetFullPath(StorePath), "data")], SyncedBeforeTheJournal(store));
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>Writes a one-key batch; returns what it synced for the Puts before it (directories, or the store's directory for a file system sync).</summary>
    private static List<string> SyncedBeforeTheJournal(IKeyValueStore store)
    {
        var synced = new List<string>();
        UnsyncedDirectories.SyncingForTests = synced.Add;
        try
        {
            store.Write(new WriteBatch().Put(Bytes.Utf8("c/1"), Bytes.Utf8("2")));
        }
        finally
        {
            UnsyncedDirectories.SyncingForTests = null;
        }

        return synced.Select(Path.GetFullPath).ToList();
    }

    // A directory limit of 16 (splits the old way), and no background sync within the test (it would sync the Puts first).
    private IKeyValueStore OpenWithoutBackgroundSync()
    {
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem }).Dispose();
        return FileSystemStore.Open(StorePath, Durability.Relaxed,
            new DataStoreOptions { Path = StorePath, Backend = StoreBackend.FileSystem, SyncInterval = TimeSpan.FromHours(1) }, NullLogger.Instance, maxEntries: 16);
    }
}

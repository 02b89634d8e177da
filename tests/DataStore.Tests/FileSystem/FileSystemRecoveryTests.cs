using DataStore.FileSystem;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.FileSystem;

/// <summary>Opening a store finishes what a dead writer left: a journaled batch, a split, stale temporary files.</summary>
public sealed class FileSystemRecoveryTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_journal_left_by_a_dead_writer_is_applied_whole_on_open()
    {
        FileSystemTestStore.Open(StorePath).Dispose();
        var batch = new WriteBatch().Put("a"u8, "1"u8).Put("b"u8, "1"u8).DeletePrefix("old"u8);
        BatchJournal.Write(batch, Path.Combine(StorePath, "tmp", "1-1.tmp"), Path.Combine(StorePath, BatchJournal.FileName));

        using var store = FileSystemTestStore.Open(StorePath);
        Assert.Equal("1"u8.ToArray(), store.Get("a"u8));
        Assert.Equal("1"u8.ToArray(), store.Get("b"u8));
        Assert.False(File.Exists(Path.Combine(StorePath, BatchJournal.FileName)));
    }

    [Fact]
    public void A_damaged_journal_is_dropped_and_applies_nothing()
    {
        FileSystemTestStore.Open(StorePath).Dispose();
        var journal = Path.Combine(StorePath, BatchJournal.FileName);
        BatchJournal.Write(new WriteBatch().Put("a"u8, "1"u8), Path.Combine(StorePath, "tmp", "1-1.tmp"), journal);
        var bytes = File.ReadAllBytes(journal);
        File.WriteAllBytes(journal, bytes[..^3]);

        using var store = FileSystemTestStore.Open(StorePath);
        Assert.False(store.HaveKey("a"u8));
        Assert.False(File.Exists(journal));
    }

    [Fact]
    public void A_split_a_dead_writer_began_is_finished_on_open()
    {
        var keys = Enumerable.Range(0, 40).Select(i => (byte[])[(byte)(i % 5), (byte)i]).ToList();
        using (var store = FileSystemTestStore.Open(StorePath, maxEntries: 64))
        {
            foreach (var key in keys)
            {
                store.Put(key, key);
            }
        }

        // As if a writer died right after recording that it was splitting the top directory.
        File.WriteAllBytes(Path.Combine(StorePath, "split.pending"), []);
        using var reopened = FileSystemTestStore.Open(StorePath, maxEntries: 64);
        Assert.True(File.Exists(Path.Combine(StorePath, "data", KeyNames.SplitMarker)));
        Assert.Equal(5, Directory.EnumerateDirectories(Path.Combine(StorePath, "data")).Count());
        StoreAssert.KeysEqual(keys.Order(KeyOrder.Instance).ToList(), StoreAssert.Scan(reopened, []));
        Assert.All(keys, k => Assert.Equal(k, reopened.Get(k)));
    }

    [Fact]
    public void Stale_temporary_files_of_dead_processes_are_removed_on_open()
    {
        FileSystemTestStore.Open(StorePath).Dispose();
        var stale = Path.Combine(StorePath, "tmp", "999999-7.tmp");
        File.WriteAllBytes(stale, [1, 2, 3]);

        using var store = FileSystemTestStore.Open(StorePath);
        Assert.False(File.Exists(stale));
    }

    [Fact]
    public void A_damaged_key_file_is_an_error_naming_the_key_not_an_absent_key()
    {
        using var store = FileSystemTestStore.Open(StorePath);
        store.Put("a"u8, "value"u8);
        var file = Assert.Single(FileSystemTestStore.RootKeyFiles(StorePath));
        var bytes = File.ReadAllBytes(file);
        bytes[^1] ^= 0xFF;
        File.WriteAllBytes(file, bytes);

        Assert.Contains("key \"a\"", Assert.Throws<StoreFormatException>(() => store.Get("a"u8)).Message, StringComparison.Ordinal);
        Assert.Equal(StoreFailure.Corrupt, Assert.Throws<StoreFormatException>(() => StoreAssert.Scan(store, [])).Cause);
        File.WriteAllBytes(file, []);
        Assert.Equal(StoreFailure.Corrupt, Assert.Throws<StoreFormatException>(() => store.Get("a"u8)).Cause);
        store.Delete("a"u8); // a damaged pair can still be removed
        Assert.Null(store.Get("a"u8));
    }

    public void Dispose() => _directory.Dispose();
}

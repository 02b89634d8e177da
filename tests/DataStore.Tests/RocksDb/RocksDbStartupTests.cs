using System.Security.Cryptography;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.RocksDb;

/// <summary>Start-up (ADR 0005): a store with nothing awaiting recovery opens read-only and writes nothing until its first write.</summary>
public sealed class RocksDbStartupTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Theory]
    [InlineData(Durability.Relaxed)]
    [InlineData(Durability.Durable)]
    public void Reading_a_cleanly_closed_store_leaves_every_file_in_its_directory_byte_identical(Durability durability)
    {
        Fill(durability, count: 200);
        var before = Files();

        using (var store = Open(durability))
        {
            StoreAssert.Holds(store, Key(7), Value(7));
            Assert.False(store.HaveKey("absent"u8));
            Assert.Equal(200, StoreAssert.Scan(store, []).Count);
        }

        Assert.Equal(before, Files());
    }

    [Fact]
    public void The_first_write_after_a_read_only_start_is_kept_and_a_cursor_begun_before_it_keeps_its_snapshot()
    {
        Fill(Durability.Relaxed, count: 3);

        using (var store = Open(Durability.Relaxed))
        {
            using var cursor = store.ScanPrefix([]);
            Assert.True(cursor.MoveNext());
            store.Put("new"u8, "1"u8);
            store.Delete(Key(2));

            var rest = 1;
            while (cursor.MoveNext())
            {
                rest++;
            }

            Assert.Equal(3, rest);
            StoreAssert.Holds(store, "new"u8.ToArray(), "1"u8.ToArray());
            Assert.False(store.HaveKey(Key(2)));
        }

        using var reopened = Open(Durability.Relaxed);
        StoreAssert.Holds(reopened, "new"u8.ToArray(), "1"u8.ToArray());
        Assert.False(reopened.HaveKey(Key(2)));
        Assert.Equal(3, StoreAssert.Scan(reopened, []).Count);
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(int i) => [(byte)'k', (byte)i];

    private static byte[] Value(int i) => [.. Bytes.Random(64, i)];

    private void Fill(Durability durability, int count)
    {
        using var store = Open(durability);
        for (var i = 0; i < count; i++)
        {
            store.Put(Key(i), Value(i));
        }
    }

    private IKeyValueStore Open(Durability durability) =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.RocksDb, Durability = durability });

    // Every file under the store directory by relative path, with a hash of its bytes.
    private SortedDictionary<string, string> Files() =>
        new(Directory.EnumerateFiles(StorePath, "*", SearchOption.AllDirectories).ToDictionary(
            f => Path.GetRelativePath(StorePath, f), f => Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(f)))), StringComparer.Ordinal);
}

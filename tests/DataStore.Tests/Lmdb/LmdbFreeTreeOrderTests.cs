using System.Buffers.Binary;
using DataStore.Lmdb.Files;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// The free-page tree's keys are transaction ids in the machine's byte order (<c>MDB_INTEGERKEY</c>): ids 255 and
/// 256 ascend as integers but not as bytes. Our own page reader (verify, and the truncation check at open) once
/// compared them as bytes and called an intact store damaged once its free-page tree held ids on both sides of a
/// multiple of 256, as a power-loss round found.
/// </summary>
public sealed class LmdbFreeTreeOrderTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task Verify_finds_an_intact_store_healthy_when_its_free_page_tree_holds_ids_across_a_multiple_of_256()
    {
        var path = _directory.Sub("store");
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb });
        for (var i = 0; i < 200; i++)
        {
            store.Put("hot"u8, BitConverter.GetBytes(i)); // one commit each: transaction ids climb past 200
        }

        using (var pin = store.EnumeratePrefix([]).GetEnumerator())
        {
            Assert.True(pin.MoveNext()); // the scan opens with the enumeration's first step
            // An open scan pins its snapshot, so the pages every later commit frees stay listed under its own id.
            for (var i = 0; i < 150; i++)
            {
                store.Put("hot"u8, BitConverter.GetBytes(i));
            }
        }

        store.Put("last"u8, "1"u8);
        var ids = FreeTreeIds(path);
        Assert.Contains(ids, id => id < 256);
        Assert.Contains(ids, id => id >= 256);

        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);

        Assert.True(report.IsHealthy, string.Join("; ", report.Problems));
    }

    public void Dispose() => _directory.Dispose();

    private static List<ulong> FreeTreeIds(string path)
    {
        var ids = new List<ulong>();
        using var file = LmdbDataFile.Open(path, Path.Combine(path, "store.lmdb"));
        new LmdbTreeReader(file).Walk(file.Meta.Free, "free-page", (key, _) => ids.Add(BinaryPrimitives.ReadUInt64LittleEndian(key)), integerKeys: true);
        return ids;
    }
}

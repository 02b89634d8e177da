using System.Text;

namespace DataStore.Tests.Transfer;

/// <summary>
/// Import and migrate build a store beside its destination and rename it into place. That is safe only while no
/// backend records its own directory inside the store: these tests check both the files and a real rename.
/// </summary>
public sealed class StoreRenameTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public void No_store_file_records_the_store_directory(StoreBackend backend)
    {
        TransferData.RequireAvailable(backend);
        var path = _directory.Sub("where-the-store-was-built");
        TransferData.Fill(path, backend, TransferData.EdgePairs(largeValue: false, ordinary: 20)).Dispose();
        var needles = new[] { Encoding.UTF8.GetBytes("where-the-store-was-built"), Encoding.Unicode.GetBytes("where-the-store-was-built") };
        foreach (var file in Directory.EnumerateFiles(path, "*", SearchOption.AllDirectories))
        {
            // RocksDB's info log (LOG, LOG.old.*) names the directory; it is a diagnostic log the engine never reads back.
            if (backend == StoreBackend.RocksDb && System.IO.Path.GetFileName(file).StartsWith("LOG", StringComparison.Ordinal))
            {
                continue;
            }

            var bytes = File.ReadAllBytes(file);
            Assert.All(needles, needle => Assert.True(bytes.AsSpan().IndexOf(needle) < 0, $"{file} records the store's directory"));
        }
    }

    [Theory]
    [MemberData(nameof(TransferData.Backends), MemberType = typeof(TransferData))]
    public void A_closed_store_renamed_opens_and_works_at_its_new_path(StoreBackend backend)
    {
        TransferData.RequireAvailable(backend);
        var before = _directory.Sub("before");
        var after = _directory.Sub("after");
        List<(byte[] Key, byte[] Value)> pairs;
        using (var store = TransferData.Fill(before, backend, TransferData.EdgePairs(largeValue: false, ordinary: 20)))
        {
            pairs = TransferData.ReadAll(store);
        }

        Directory.Move(before, after);
        using var moved = KeyValueStore.Open(after);
        Assert.Equal(backend, moved.Backend);
        TransferData.AssertSamePairs(pairs, TransferData.ReadAll(moved));
        moved.Put("after-the-move"u8, "1"u8);
        Assert.True(moved.HaveKey("after-the-move"u8));
    }
}

using System.Buffers.Binary;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// LMDB keeps no checksums (1.0 can, but DataStore does not turn them on), so a damaged branch page can send a cursor back to pages it has read: a scan must
/// report the damage (a Corrupt DataStoreException) instead of handing out keys again, out of order, or going
/// round for ever.
/// </summary>
public sealed class LmdbDamagedPageTests : IDisposable
{
    private const uint MetaMagic = 0xBEEFC0DE;
    private const int PageHeader = 24; // LMDB 1.0: page number, transaction id, pad, flags, lower, upper
    private const ushort BranchPage = 0x01;
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task A_scan_led_back_to_a_page_it_has_read_reports_the_store_corrupt()
    {
        var path = _directory.Sub("store");
        var options = new DataStoreOptions { Path = path, Backend = StoreBackend.Lmdb };
        using (var store = KeyValueStore.Open(options))
        {
            var batch = new WriteBatch();
            for (var i = 0; i < 2_000; i++)
            {
                var key = new byte[5];
                key[0] = (byte)'k';
                BinaryPrimitives.WriteInt32BigEndian(key.AsSpan(1), i);
                batch.Put(key, new byte[100]);
            }

            store.Write(batch);
        }

        PointSecondChildAtFirst(Path.Combine(path, "store.lmdb"));

        // The open check walks the tree now and refuses the store; past its page budget the scan's key-order check would.
        var scan = Task.Run(
            () =>
            {
                using var damaged = KeyValueStore.Open(options);
                return StoreAssert.Scan(damaged, []).Count;
            },
            TestContext.Current.CancellationToken);
        var error = await Assert.ThrowsAnyAsync<DataStoreException>(() => scan.WaitAsync(TimeSpan.FromSeconds(30), TestContext.Current.CancellationToken));
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(path, error.Message);
    }

    public void Dispose() => _directory.Dispose();

    // Rewrites the root branch page of the main database (LMDB 1.0's 64-bit layout) so that its second child is
    // its first: a cursor leaving the first leaf for its right sibling lands on the first leaf again.
    private static void PointSecondChildAtFirst(string dataFile)
    {
        var bytes = File.ReadAllBytes(dataFile);
        var meta = NewestMeta(bytes);
        var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(meta + PageHeader + 24));
        var depth = BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(meta + PageHeader + 78));
        var root = checked((int)BinaryPrimitives.ReadUInt64LittleEndian(bytes.AsSpan(meta + PageHeader + 112)) * pageSize);
        Assert.True(depth >= 2, $"the test store should be two levels deep, LMDB made it {depth}");

        var flags = BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(root + 18));
        var lower = BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(root + 20));
        Assert.True((flags & BranchPage) != 0 && lower / 2 >= 2, "the root should be a branch page with two children or more");

        // Node offsets in LMDB 1.0 count from the end of the page header.
        var first = root + PageHeader + BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(root + PageHeader));
        var second = root + PageHeader + BinaryPrimitives.ReadUInt16LittleEndian(bytes.AsSpan(root + PageHeader + 2));
        bytes.AsSpan(first, 6).CopyTo(bytes.AsSpan(second, 6)); // a branch node's child page number: mn_lo, mn_hi, mn_flags
        File.WriteAllBytes(dataFile, bytes);
    }

    // The meta page (0 or 1) with the higher transaction id is the one LMDB opens.
    private static int NewestMeta(byte[] bytes)
    {
        var pageSize = (int)BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(PageHeader + 24));
        int[] metas = [0, pageSize];
        foreach (var meta in metas)
        {
            Assert.Equal(MetaMagic, BinaryPrimitives.ReadUInt32LittleEndian(bytes.AsSpan(meta + PageHeader)));
        }

        return metas.MaxBy(meta => BinaryPrimitives.ReadUInt64LittleEndian(bytes.AsSpan(meta + PageHeader + 128)));
    }
}

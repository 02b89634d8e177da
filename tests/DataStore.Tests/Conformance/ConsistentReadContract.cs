namespace DataStore.Tests.Conformance;

/// <summary>Rule 6 (in one process): a scan never shows half a batch and, with snapshot scans, reads from the moment it started.</summary>
public abstract class ConsistentReadContract : StoreContract
{
    [Fact]
    public void A_scan_does_not_see_writes_made_while_it_iterates()
    {
        RequireCapability(StoreCapabilities.SnapshotScans, "6: a scan reads from a snapshot");
        var store = Open();
        for (byte i = 0; i < 10; i++)
        {
            store.Put([1, i], [i]);
        }

        using var cursor = store.ScanPrefix([1]);
        Assert.True(cursor.MoveNext());
        store.Put([1, 5], [99]);
        store.Put([1, 0x20], [1]);
        store.Delete([1, 9]);
        store.Write(new WriteBatch().DeletePrefix([1]).Put([1, 3], [42]));
        store.Put([1, 0x00, 0x01], [1]);

        var seen = new List<(byte[] Key, byte[] Value)> { (cursor.Key.ToArray(), cursor.Value.ToArray()) };
        seen.AddRange(StoreAssert.Drain(cursor));
        Assert.Equal(10, seen.Count);
        for (byte i = 0; i < 10; i++)
        {
            Assert.Equal(new byte[] { 1, i }, seen[i].Key);
            Assert.Equal(new[] { i }, seen[i].Value);
        }

        StoreAssert.KeysEqual([[1, 0x00, 0x01], [1, 3]], StoreAssert.Scan(store, [1]));
    }

    [Fact]
    public void A_scan_opened_before_a_write_does_not_see_it_even_before_its_first_MoveNext()
    {
        RequireCapability(StoreCapabilities.SnapshotScans, "6: a scan reads from a snapshot");
        var store = Open();
        store.Put([1], [1]);
        using var cursor = store.ScanPrefix([]);
        store.Put([0], [0]);
        store.Put([2], [2]);
        StoreAssert.KeysEqual([[1]], StoreAssert.Drain(cursor));
    }

    [Fact]
    public async Task A_scan_never_shows_half_of_a_batch_written_by_another_thread()
    {
        var store = Open();
        const int rounds = 300;
        store.Write(new WriteBatch().Put([1, 0], BitConverter.GetBytes(0)).Put([1, 1], BitConverter.GetBytes(0)));
        var writer = Task.Run(() =>
        {
            for (var i = 1; i <= rounds; i++)
            {
                store.Write(new WriteBatch().Put([1, 0], BitConverter.GetBytes(i)).Put([1, 1], BitConverter.GetBytes(i)));
            }
        }, TestContext.Current.CancellationToken);

        var scans = 0;
        while (!writer.IsCompleted || scans < 10)
        {
            var pairs = StoreAssert.Scan(store, [1]);
            Assert.Equal(2, pairs.Count);
            Assert.Equal(BitConverter.ToInt32(pairs[0].Value), BitConverter.ToInt32(pairs[1].Value));
            scans++;
        }

        await writer;
    }
}

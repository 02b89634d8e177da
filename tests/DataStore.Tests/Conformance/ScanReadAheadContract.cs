namespace DataStore.Tests.Conformance;

/// <summary>
/// A scan costs what it reads: a scan stopped after its first pairs has read a few, however long the rest of its
/// range, and scans opened one after another (on reused native cursors or kept scan threads) each see the store as
/// it was when they opened. Run on the backends that count what a scan reads (<see cref="ReadSoFar"/>).
/// </summary>
public abstract class ScanReadAheadContract : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    /// <summary>The most a scan may have read when it hands out its first pair.</summary>
    protected abstract int FirstBatchAtMost { get; }

    /// <summary>The most a scan may have read when it hands out its tenth pair.</summary>
    protected abstract int TenthPairAtMost { get; }

    /// <summary>Opens the backend's own store (whose cursors count their reads) in <paramref name="path"/>.</summary>
    protected abstract IKeyValueStore Open(string path);

    /// <summary>How many pairs or documents <paramref name="cursor"/> has read from the engine so far.</summary>
    protected abstract long ReadSoFar(IKeyValueCursor cursor);

    [Fact]
    public void A_scan_abandoned_after_its_first_pairs_reads_no_more_of_a_long_range()
    {
        using var store = Open(_directory.Sub("store"));
        Fill(store, 3_000);

        // A YCSB E style scan from a key in the middle, with no end: 2,000 pairs follow it.
        using (var cursor = store.ScanRange(Key(1_000), []))
        {
            Assert.True(cursor.MoveNext());
            Assert.Equal(Key(1_000), cursor.Key.ToArray());
            Assert.InRange(ReadSoFar(cursor), 1, FirstBatchAtMost);
            for (var i = 1; i < 10; i++)
            {
                Assert.True(cursor.MoveNext());
                Assert.Equal(Key(1_000 + i), cursor.Key.ToArray());
            }

            Assert.InRange(ReadSoFar(cursor), 10, TenthPairAtMost);
        }

        var all = StoreAssert.Range(store, Key(1_000), []);
        Assert.Equal(Enumerable.Range(1_000, 2_000).Select(Key), all.Select(p => p.Key));
    }

    [Fact]
    public void Scans_one_after_another_each_see_the_store_as_it_was_when_they_opened()
    {
        using var store = Open(_directory.Sub("store"));
        Fill(store, 50);
        for (var round = 0; round < 10; round++)
        {
            // This scan reuses what the one before left (its native cursor, its thread); the writes after it opened stay unseen.
            using var cursor = store.ScanPrefix("k"u8);
            Assert.True(cursor.MoveNext());
            store.Put(Key(1_000 + round), [9]);
            store.Delete(Key(round));
            var seen = new List<byte[]> { cursor.Key.ToArray() };
            seen.AddRange(StoreAssert.Drain(cursor).Select(p => p.Key));
            Assert.Equal(Enumerable.Range(round, 50 - round).Concat(Enumerable.Range(1_000, round)).Select(Key), seen);
        }

        using var outer = store.ScanPrefix("k"u8);
        using var inner = store.ScanPrefix("k"u8);
        Assert.True(outer.MoveNext());
        Assert.True(inner.MoveNext());
        Assert.Equal(outer.Key.ToArray(), inner.Key.ToArray());
        Assert.Equal(StoreAssert.Drain(outer).Select(p => p.Key), StoreAssert.Drain(inner).Select(p => p.Key));
    }

    public void Dispose()
    {
        _directory.Dispose();
        GC.SuppressFinalize(this);
    }

    private static byte[] Key(int i) => [(byte)'k', (byte)(i >> 24), (byte)(i >> 16), (byte)(i >> 8), (byte)i];

    private static void Fill(IKeyValueStore store, int count)
    {
        var batch = new WriteBatch();
        for (var i = 0; i < count; i++)
        {
            batch.Put(Key(i), Bytes.Random(100, i));
        }

        store.Write(batch);
    }
}

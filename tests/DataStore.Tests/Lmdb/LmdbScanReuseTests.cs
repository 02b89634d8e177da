using DataStore.Lmdb;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// Lmdb scans read one pair a visit at first and then read ahead an eighth of what they have read (ADR 0006); they run
/// on native cursors and read transactions kept from the scans before them, which must still start a new snapshot.
/// </summary>
public sealed class LmdbScanReuseTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_long_scan_reads_ahead_at_most_an_eighth_past_what_it_handed_out_and_its_batches_grow()
    {
        using var store = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < 3_000; i++)
        {
            batch.Put(Key("k/", i), Bytes.Random(100, i));
        }

        store.Write(batch);
        using var cursor = store.ScanPrefix("k/"u8);
        var read = (LmdbCursor)cursor;
        long handed = 0, before = 0, largestStep = 0;
        while (cursor.MoveNext())
        {
            handed++;
            Assert.Equal(Key("k/", (int)handed - 1), cursor.Key.ToArray());
            Assert.Equal(Bytes.Random(100, (int)handed - 1), cursor.Value.ToArray());
            Assert.InRange(read.PairsRead, handed, handed + (handed / 8));
            largestStep = Math.Max(largestStep, read.PairsRead - before);
            before = read.PairsRead;
        }

        Assert.Equal(3_000, handed);
        Assert.InRange(largestStep, 100, 256); // 16 KiB of 112-byte pairs: the batch fills its buffer before 256 pairs
    }

    [Fact]
    public void A_reused_cursor_sees_writes_by_another_thread_and_another_process_only_in_a_new_scan()
    {
        var path = _directory.Sub("store");
        using var store = Open(path);
        for (var i = 0; i < 20; i++)
        {
            store.Put(Key("k/", i), [(byte)i]);
        }

        var expected = Enumerable.Range(0, 20).Select(i => Key("k/", i)).ToList();
        for (var round = 0; round < 2; round++)
        {
            // Each scan after the first renews the native cursor and read transaction the one before it left.
            using (var cursor = store.ScanPrefix("k/"u8))
            {
                Assert.True(cursor.MoveNext());
                var seen = new List<byte[]> { cursor.Key.ToArray() };
                var writer = new Thread(() => store.Put(Key("k/t", round), [1]));
                writer.Start();
                writer.Join();
                var (code, output) = ChildProcess.Run(["put", path, "Lmdb", "-", $"k/p{round}", "1"]);
                Assert.True(code == 0, output);
                store.Delete(Key("k/", round));
                seen.AddRange(StoreAssert.Drain(cursor).Select(p => p.Key));
                Assert.Equal(expected, seen);
            }

            expected.Remove(expected.Single(k => k.AsSpan().SequenceEqual(Key("k/", round))));
            expected.Add(Key("k/t", round));
            expected.Add("k/p"u8.ToArray().Append((byte)('0' + round)).ToArray());
            expected.Sort((a, b) => a.AsSpan().SequenceCompareTo(b));
            Assert.Equal(expected, StoreAssert.Scan(store, "k/"u8.ToArray()).Select(p => p.Key));
        }
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(string prefix, int i) => [.. System.Text.Encoding.UTF8.GetBytes(prefix), (byte)(i >> 8), (byte)i];

    private IKeyValueStore Open(string? path = null) =>
        KeyValueStore.Open(new DataStoreOptions { Path = path ?? _directory.Sub("store"), Backend = StoreBackend.Lmdb });
}

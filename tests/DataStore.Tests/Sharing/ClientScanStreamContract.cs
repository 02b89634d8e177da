using DataStore.Sharing;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Sharing;

/// <summary>
/// A client's scan streams from the owner in chunks, the next one read ahead while the client reads the last (ADR
/// 0015): every pair arrives once and in order whatever the chunk boundaries, and what a scan holds in the owner (its
/// cursor and the one chunk read ahead) goes when the client disposes it.
/// </summary>
public abstract class ClientScanStreamContract : StoreContract
{
    [Fact]
    public void A_client_scan_returns_every_pair_in_order_across_chunk_boundaries_at_odd_sizes()
    {
        var seed = Environment.TickCount;
        var random = new Random(seed);
        var owner = Open();
        var client = Open();
        var batch = new WriteBatch();

        // Groups that end a chunk at the 1,024-pair limit (1,023, 1,024, 1,025 and 2,049 pairs), one whose values end
        // chunks at the 256 KiB limit at uneven points, and values larger than a whole chunk.
        foreach (var (group, count, largest) in new[] { ("a", 1_023, 40), ("b", 1_024, 40), ("c", 1_025, 40), ("d", 2_049, 9), ("e", 997, 1_537), ("f", 5, 300_000) })
        {
            for (var i = 0; i < count; i++)
            {
                var value = new byte[random.Next(largest + 1)];
                random.NextBytes(value);
                batch.Put([(byte)group[0], (byte)(i >> 8), (byte)i, .. new byte[random.Next(3)]], value);
            }

            owner.Write(batch);
            batch.Clear();
        }

        foreach (var prefix in new[] { "a", "b", "c", "d", "e", "f", "" })
        {
            var expected = StoreAssert.Scan(owner, System.Text.Encoding.ASCII.GetBytes(prefix));
            foreach (var keysOnly in new[] { false, true })
            {
                var actual = StoreAssert.Scan(client, System.Text.Encoding.ASCII.GetBytes(prefix), keysOnly);
                Assert.True(expected.Count == actual.Count, $"prefix '{prefix}', keysOnly {keysOnly}: {actual.Count} pairs, not {expected.Count} (seed {seed})");
                for (var i = 0; i < expected.Count; i++)
                {
                    Assert.True(expected[i].Key.AsSpan().SequenceEqual(actual[i].Key), $"prefix '{prefix}': pair {i} has another key (seed {seed})");
                    Assert.True(keysOnly || expected[i].Value.AsSpan().SequenceEqual(actual[i].Value), $"prefix '{prefix}': pair {i} has another value (seed {seed})");
                }
            }
        }
    }

    [Fact]
    public void A_client_disposing_mid_scan_releases_the_owners_cursor_and_the_chunk_read_ahead()
    {
        var owner = Open();
        var client = Open();
        var batch = new WriteBatch();
        for (var i = 0; i < 5_000; i++)
        {
            batch.Put([(byte)'k', (byte)(i >> 8), (byte)i], new byte[100]);
        }

        owner.Write(batch);
        var scans = Assert.IsType<SharedStore>(owner).Server!.Scans;

        using (var cursor = client.ScanPrefix("k"u8))
        {
            Assert.True(cursor.MoveNext());
            WaitUntil(() => scans.Ahead == 1);
            Thread.Sleep(200);
            Assert.Equal(1, scans.Open);
            Assert.Equal(1, scans.Ahead); // a client that stops reading pins one chunk read ahead, no more
        }

        Assert.Equal(0, scans.Open);
        Assert.Equal(0, scans.Ahead);
        Assert.Equal(5_000, StoreAssert.Scan(client, "k"u8.ToArray(), keysOnly: true).Count); // the connection is in step again
        Assert.Equal(0, scans.Open);
        Assert.Equal(0, scans.Ahead);
    }

    private static void WaitUntil(Func<bool> condition)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!condition())
        {
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), "the owner did not read the next chunk ahead within 30 s");
            Thread.Sleep(10);
        }
    }
}

using DataStore.Integrity;
using DataStore.Lmdb;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>
/// A scan checks the pairs of a batch together, three at a time (ADR 0014): a damaged pair at any place in a batch,
/// and in any of the three places of a check, must stop the scan with an error naming it, and nothing after it, nor
/// the damaged pair, may be handed out.
/// </summary>
public sealed class LmdbScanChecksumTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_damaged_pair_anywhere_in_a_batch_stops_the_scan_naming_it_and_only_intact_pairs_before_it_come_out()
    {
        using var store = LmdbTestStores.OpenSmall(_directory.Sub("store"), 16 << 20);
        for (var i = 0; i < 200; i++)
        {
            store.Put(Key(i), Bytes.Random(i % 7 == 0 ? 9 : 100 + (i % 3), i)); // mixed lengths, so checks in threes run unevenly
        }

        var victim = Key(150);
        var value = Bytes.Random(100, 150);
        var stored = new byte[value.Length + PairChecksum.Length];
        value.CopyTo(stored, 0);
        LmdbPairs.WriteSuffix(stored, victim, value, checksums: true);
        stored[10] ^= 0x20; // the value changed after its checksum was written
        LmdbTestStores.PutRaw(store, store.Environment.Dbi, victim, stored);

        // Starting 1 to 60 pairs before the victim moves it through every place of the growing batches.
        for (var start = 90; start < 150; start++)
        {
            using var cursor = store.ScanRange(Key(start), []);
            var seen = start;
            var error = Assert.Throws<StoreFormatException>(() =>
            {
                while (cursor.MoveNext())
                {
                    Assert.Equal(Key(seen), cursor.Key.ToArray());
                    Assert.Equal(Bytes.Random(seen % 7 == 0 ? 9 : 100 + (seen % 3), seen), cursor.Value.ToArray());
                    seen++;
                }
            });
            Assert.True(seen <= 150, $"from {start}: the scan handed out pairs up to {seen - 1}, past the damaged one");
            Assert.Equal(StoreFailure.Corrupt, error.Cause);
            Assert.Contains("k/0150", error.Message, StringComparison.Ordinal);
        }
    }

    public void Dispose() => _directory.Dispose();

    private static byte[] Key(int i) => System.Text.Encoding.ASCII.GetBytes($"k/{i:D4}");
}

using DataStore.Lmdb;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Lmdb;

/// <summary>Keys past LMDB's 511 bytes (ADR 0007): memcmp order, prefix and range scans with long bounds, and slot collisions.</summary>
public sealed class LmdbLongKeyTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void Keys_around_the_plain_length_sharing_long_prefixes_agree_with_a_sorted_model()
    {
        var seed = Random.Shared.Next();
        var random = new Random(seed);
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.Lmdb });
        var model = new SortedDictionary<byte[], byte[]>(KeyOrder.Instance);
        var common = Bytes.Random(LmdbKeys.PlainMax + 40, 1);

        byte[] NewKey()
        {
            var length = LmdbKeys.PlainMax - 3 + random.Next(50);
            var key = common[..Math.Min(length, common.Length)];
            if (length > common.Length)
            {
                key = [.. key, .. Bytes.Random(length - common.Length, random.Next())];
            }

            if (random.Next(2) == 0)
            {
                key[random.Next(LmdbKeys.PlainMax - 5, key.Length)] = (byte)random.Next(4);
            }

            return key;
        }

        for (var step = 0; step < 1500; step++)
        {
            var key = NewKey();
            switch (random.Next(10))
            {
                case < 5:
                    var value = Bytes.Random(random.Next(20), step);
                    store.Put(key, value);
                    model[key] = value;
                    break;
                case < 7:
                    store.Delete(key);
                    model.Remove(key);
                    break;
                case 7:
                    var end = NewKey();
                    var (start, stop) = key.AsSpan().SequenceCompareTo(end) <= 0 ? (key, end) : (end, key);
                    var doomed = model.Keys.Where(k => k.AsSpan().SequenceCompareTo(start) >= 0 && k.AsSpan().SequenceCompareTo(stop) < 0).ToList();
                    Assert.True(doomed.Count == store.DeleteRange(start, stop), $"DeleteRange count differs (seed {seed}, step {step})");
                    doomed.ForEach(k => model.Remove(k));
                    break;
                default:
                    var prefix = key[..random.Next(LmdbKeys.PlainMax - 10, key.Length + 1)];
                    var expected = model.Where(p => p.Key.AsSpan().StartsWith(prefix)).Select(p => p.Key).ToList();
                    StoreAssert.KeysEqual(expected, StoreAssert.Scan(store, prefix, keysOnly: random.Next(2) == 0));
                    break;
            }

            Assert.True(model.ContainsKey(key) == store.HaveKey(key), $"HaveKey differs (seed {seed}, step {step})");
        }

        StoreAssert.KeysEqual(model.Keys, StoreAssert.Scan(store, []));
        Assert.All(model, p => StoreAssert.Holds(store, p.Key, p.Value));
    }

    [Fact]
    public void A_slot_taken_by_another_key_with_the_same_hash_is_never_confused_with_it()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath, 16 << 20);
        var key = Bytes.Key(1000, 7, 1);
        var impostor = Bytes.Key(1000, 7, 2);                         // same prefix; pretend its hash equals key's

        // Write the impostor under key's own slot (counter 0), as a real SHA-256 collision would place it.
        var slot = new byte[LmdbKeys.SlotLength];
        LmdbKeys.WriteSlot(key, slot);
        var stored = new byte[LmdbKeys.HeaderLength + impostor.Length + 3 + LmdbPairs.SuffixLength(checksums: true)];
        LmdbKeys.WriteSlotValue(stored, impostor, "imp"u8);
        LmdbPairs.WriteSuffix(stored, impostor, "imp"u8, checksums: true);
        PutRaw(store, slot, stored);

        Assert.False(store.HaveKey(key));
        store.Put(key, "real"u8);
        StoreAssert.Holds(store, key, "real"u8.ToArray());
        Assert.True(store.TryWrite(new WriteBatch().RequireValue(key, "real"u8).Put(key, "new"u8), out _));
        StoreAssert.KeysEqual([key, impostor], StoreAssert.Scan(store, [7]));
        Assert.Equal(["new"u8.ToArray(), "imp"u8.ToArray()], StoreAssert.Scan(store, [7]).Select(p => p.Value));

        store.Delete(key);
        Assert.False(store.HaveKey(key));
        StoreAssert.KeysEqual([impostor], StoreAssert.Scan(store, [7]));
    }

    [Fact]
    public void A_damaged_long_key_record_is_reported_as_a_corrupt_store_not_a_slicing_error()
    {
        using var store = LmdbTestStores.OpenSmall(StorePath, 16 << 20);
        var key = Bytes.Key(1000, 7, 1);
        var slot = new byte[LmdbKeys.SlotLength];
        LmdbKeys.WriteSlot(key, slot);
        var damaged = new byte[12];
        BitConverter.TryWriteBytes(damaged, 1_000_000);               // a key length far past the record's end
        PutRaw(store, slot, damaged);

        Assert.Equal(StoreFailure.Corrupt, Assert.ThrowsAny<DataStoreException>(() => store.HaveKey(key)).Cause);
        Assert.Equal(StoreFailure.Corrupt, Assert.ThrowsAny<DataStoreException>(() => StoreAssert.Scan(store, [7])).Cause);
        Assert.Equal(StoreFailure.Corrupt, Assert.ThrowsAny<DataStoreException>(() => store.Put(key, "v"u8)).Cause);
    }

    public void Dispose() => _directory.Dispose();

    /// <summary>Writes a stored key and value as they lie in the LMDB file, past the backend's own encoding.</summary>
    private static void PutRaw(LmdbStore store, byte[] stored, byte[] value) => LmdbTestStores.PutRaw(store, store.Environment.Dbi, stored, value);
}

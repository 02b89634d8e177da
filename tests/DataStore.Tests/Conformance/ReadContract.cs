namespace DataStore.Tests.Conformance;

/// <summary>
/// The base of the read rules: each test seeds its pairs once, then only reads, so the rules run on every backend,
/// read-only ones included. A writable backend is seeded by batches, a read-only one (Packed) by building it.
/// </summary>
public abstract class ReadContract : StoreContract
{
    protected override bool ReadsOnly => true;

    /// <summary>Opens the backend under test holding exactly <paramref name="pairs"/>.</summary>
    protected IKeyValueStore OpenWith(IEnumerable<(byte[] Key, byte[] Value)> pairs)
    {
        if (CapabilitiesOf(Backend).HasFlag(StoreCapabilities.ReadOnly))
        {
            PackedStore.Build(pairs.Select(p => KeyValuePair.Create(p.Key, p.Value)), StorePath);
            return Open();
        }

        var store = Open();
        foreach (var chunk in pairs.Chunk(500))
        {
            var batch = new WriteBatch();
            foreach (var (key, value) in chunk)
            {
                batch.Put(key, value);
            }

            store.Write(batch);
        }

        return store;
    }

    /// <summary>Pairs whose keys share prefixes and end in 0x00 and 0xFF bytes, in shuffled order: key i holds value i.</summary>
    protected static List<(byte[] Key, byte[] Value)> Clustered(int count, int seed)
    {
        var random = new Random(seed);
        var keys = new SortedSet<byte[]>(KeyOrder.Instance);
        byte[] alphabet = [0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF];
        while (keys.Count < count)
        {
            var key = new byte[1 + random.Next(6)];
            for (var i = 0; i < key.Length; i++)
            {
                key[i] = alphabet[random.Next(alphabet.Length)];
            }

            keys.Add(key);
        }

        return [.. keys.Select(k => (k, Bytes.Random(random.Next(40), k.Length * 31 + k[0]))).OrderBy(_ => random.Next())];
    }
}

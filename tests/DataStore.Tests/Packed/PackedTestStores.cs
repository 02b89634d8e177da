using DataStore.Tests.Conformance;

namespace DataStore.Tests.Packed;

/// <summary>Pairs and builds the Packed tests share.</summary>
internal static class PackedTestStores
{
    /// <summary><paramref name="count"/> pairs <c>key/{i:D7}</c> = 100 seeded bytes, in shuffled order.</summary>
    public static List<KeyValuePair<byte[], byte[]>> Shuffled(int count, int seed)
    {
        var random = new Random(seed);
        var pairs = Enumerable.Range(0, count).Select(i => KeyValuePair.Create(Bytes.Utf8($"key/{i:D7}"), Bytes.Random(100, i))).ToList();
        random.Shuffle(System.Runtime.InteropServices.CollectionsMarshal.AsSpan(pairs));
        return pairs;
    }

    /// <summary>Builds a store of <paramref name="count"/> sorted pairs at <paramref name="path"/>; returns its data file.</summary>
    public static string Build(string path, int count)
    {
        PackedStore.Build(Shuffled(count, 1).OrderBy(p => p.Key, KeyOrder.Instance), path);
        return Path.Combine(path, "store.packed");
    }
}

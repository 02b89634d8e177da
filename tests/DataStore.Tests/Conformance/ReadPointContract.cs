namespace DataStore.Tests.Conformance;

/// <summary>Rules 1 and 3, read side: Get and HaveKey find exactly the seeded pairs, also across many blocks.</summary>
public abstract class ReadPointContract : ReadContract
{
    [Fact]
    public void Get_returns_every_seeded_value_and_HaveKey_agrees()
    {
        var pairs = Clustered(1_500, 3);
        var store = OpenWith(pairs);
        foreach (var (key, value) in pairs)
        {
            StoreAssert.Holds(store, key, value);
            Assert.True(store.HaveKey(key), $"HaveKey says {Bytes.Hex(key)} is absent");
        }
    }

    [Fact]
    public void Keys_below_between_and_above_the_seeded_ones_are_absent()
    {
        var store = OpenWith([([1, 0], [1]), ([1, 0, 0xFF], [2]), ([3], [3]), ([0xFF, 0xFF], [4])]);
        byte[][] absent = [[0], [1], [1, 0, 0], [1, 0, 0xFF, 0], [1, 1], [2], [3, 0], [0xFF], [0xFF, 0xFF, 0xFF]];
        foreach (var key in absent)
        {
            Assert.False(store.HaveKey(key), $"HaveKey says {Bytes.Hex(key)} is present");
            Assert.Null(store.Get(key));
            var writer = new System.Buffers.ArrayBufferWriter<byte>();
            Assert.False(store.Get(key, writer));
            Assert.Equal(0, writer.WrittenCount);
            Assert.Equal(-1, store.Get(key, new byte[8]));
        }
    }

    [Fact]
    public void Get_into_a_short_span_copies_nothing_and_returns_the_length()
    {
        var store = OpenWith([([7], [1, 2, 3, 4, 5]), ([8], [])]);
        var buffer = new byte[4];
        Assert.Equal(5, store.Get([7], buffer));
        Assert.Equal(new byte[4], buffer);
        Assert.Equal(0, store.Get([8], buffer));
        Assert.True(store.HaveKey([8]));
    }

    [Fact]
    public void A_1_MiB_key_and_a_16_MiB_value_are_read_back()
    {
        var longKey = Bytes.Key(1 << 20, 9, 0xFF);
        var bigValue = Bytes.Random(16 << 20, 16);
        var store = OpenWith([(longKey, [1]), ([9], bigValue), ([9, 0x5A], [2])]);
        StoreAssert.Holds(store, longKey, [1]);
        StoreAssert.Holds(store, [9], bigValue);
        StoreAssert.KeysEqual([[9], [9, 0x5A], longKey], StoreAssert.Scan(store, [9], keysOnly: true));
    }
}

using System.Buffers;

namespace DataStore.Tests.Conformance;

/// <summary>Rule 1: keys and values are byte strings; keys of 1 byte to 1 MiB and values of 0 bytes to 256 MiB work.</summary>
public abstract class BytesContract : StoreContract
{
    [Theory]
    [InlineData(1)]
    [InlineData(511)]
    [InlineData(512)]
    [InlineData(1023)]
    [InlineData(1024)]
    [InlineData(4096)]
    [InlineData(1 << 20)]
    public void A_key_of_any_length_round_trips_and_scans(int length)
    {
        var store = Open();
        var key = Bytes.Random(length, length);
        var value = Bytes.Random(100, length + 1);
        store.Put(key, value);
        store.Put(Bytes.Of(0x00), Bytes.Of(1));

        StoreAssert.Holds(store, key, value);
        Assert.True(store.HaveKey(key));
        var scanned = StoreAssert.Scan(store, key[..1]);
        Assert.Contains(scanned, p => p.Key.AsSpan().SequenceEqual(key) && p.Value.AsSpan().SequenceEqual(value));
    }

    [Fact]
    public void Keys_that_share_a_long_prefix_stay_distinct()
    {
        var store = Open();
        var a = Bytes.Key(2000, 7, 1);
        var b = Bytes.Key(2000, 7, 2);
        store.Put(a, Bytes.Of(1));
        store.Put(b, Bytes.Of(2));
        StoreAssert.Holds(store, a, Bytes.Of(1));
        StoreAssert.Holds(store, b, Bytes.Of(2));
        StoreAssert.KeysEqual([a, b], StoreAssert.Scan(store, [7]));
    }

    [Fact]
    public void An_empty_value_is_stored_and_differs_from_absent()
    {
        var store = Open();
        store.Put(Bytes.Of(1), []);
        StoreAssert.Holds(store, Bytes.Of(1), []);
        Assert.True(store.HaveKey(Bytes.Of(1)));
        Assert.Equal(0, store.Get(Bytes.Of(1), Span<byte>.Empty));
        Assert.Null(store.Get(Bytes.Of(2)));
        Assert.Equal(-1, store.Get(Bytes.Of(2), new byte[4]));
    }

    [Fact]
    public void Zero_and_0xFF_bytes_in_keys_and_values_round_trip()
    {
        var store = Open();
        byte[][] keys = [[0x00], [0x00, 0x00], [0xFF], [0xFF, 0x00, 0xFF], [0x01, 0x00]];
        foreach (var key in keys)
        {
            store.Put(key, [0x00, .. key, 0xFF]);
        }

        foreach (var key in keys)
        {
            StoreAssert.Holds(store, key, [0x00, .. key, 0xFF]);
        }
    }

    [Fact]
    public void Get_into_a_span_copies_when_it_fits_and_reports_the_length_when_it_does_not()
    {
        var store = Open();
        var value = Bytes.Random(300, 3);
        store.Put(Bytes.Of(9), value);

        var large = new byte[400];
        Assert.Equal(300, store.Get(Bytes.Of(9), large));
        Assert.Equal(value, large[..300]);

        var small = new byte[10];
        Assert.Equal(300, store.Get(Bytes.Of(9), small));
        Assert.All(small, b => Assert.Equal(0, b));
    }

    [Fact]
    public void Get_into_a_buffer_writer_appends_the_value()
    {
        var store = Open();
        store.Put(Bytes.Of(1), Bytes.Of(4, 5, 6));
        var writer = new ArrayBufferWriter<byte>();
        writer.Write(Bytes.Of(9));
        Assert.True(store.Get(Bytes.Of(1), writer));
        Assert.Equal(Bytes.Of(9, 4, 5, 6), writer.WrittenSpan.ToArray());
        Assert.False(store.Get(Bytes.Of(2), writer));
        Assert.Equal(4, writer.WrittenCount);
    }

    [Fact]
    public void A_16_MiB_value_round_trips_through_a_batch()
    {
        var store = Open();
        var value = Bytes.Random(16 << 20, 16);
        store.Write(new WriteBatch().Put(Bytes.Of(1), value).Put(Bytes.Of(2), Bytes.Of(2)));
        StoreAssert.Holds(store, Bytes.Of(1), value);
        StoreAssert.Holds(store, Bytes.Of(2), Bytes.Of(2));
    }

    [Fact]
    public void A_256_MiB_value_round_trips()
    {
        var store = Open();
        var value = new byte[256 << 20];
        new Random(256).NextBytes(value.AsSpan(0, 1 << 20));
        value[^1] = 0xAB;
        store.Put(Bytes.Of(1), value);

        var writer = new ArrayBufferWriter<byte>(value.Length);
        Assert.True(store.Get(Bytes.Of(1), writer));
        Assert.True(writer.WrittenSpan.SequenceEqual(value));
    }
}

using DataStore.Transfer;

namespace DataStore.Tests.Transfer;

/// <summary>Damaged and hostile dumps: each is refused with a clear message, and reading one never allocates what a length prefix claims.</summary>
public sealed class HostileDumpTests
{
    private static readonly byte[] K1 = [1];
    private static readonly byte[] K2 = [2];

    private static DumpBuilder TwoPairs() => new DumpBuilder().Pair(K1, [10, 11]).Pair(K2, []).End();

    [Fact]
    public void A_crafted_dump_reads_back_with_the_digest_of_its_pairs()
    {
        var (pairs, digest) = DumpReading.ReadAll(TwoPairs().Build());
        Assert.Equal(2, pairs.Count);
        Assert.Equal(2, digest.Pairs);
        Assert.Equal(4, digest.Bytes);
    }

    [Fact]
    public async Task The_library_writer_and_the_documented_layout_agree_byte_for_byte()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        store.Put(K1, [10, 11]);
        store.Put(K2, []);
        using var written = new MemoryStream();
        await store.ExportAsync(written, cancellationToken: TestContext.Current.CancellationToken);
        Assert.Equal(TwoPairs().Build(), written.ToArray());
    }

    [Fact]
    public void An_empty_stream_is_refused() => DumpReading.Rejects([], "the dump is empty");

    [Fact]
    public void A_file_without_the_magic_is_refused() =>
        DumpReading.Rejects("SQLite format 3\0 and more bytes"u8.ToArray(), "not a DataStore dump");

    [Fact]
    public void A_newer_format_version_is_refused_saying_so() =>
        DumpReading.Rejects(new DumpBuilder { Version = 2 }.End().Build(), "format version 2, newer than version 1", StoreFailure.NewerFormat);

    [Fact]
    public void Unknown_flags_are_refused_as_a_newer_format() =>
        DumpReading.Rejects(new DumpBuilder { Flags = 4 }.End().Build(), "flags 0x00000004", StoreFailure.NewerFormat);

    [Fact]
    public void A_damaged_header_is_refused()
    {
        var dump = TwoPairs().Build();
        dump[17] ^= 0x40;
        DumpReading.Rejects(dump, "header's CRC-32C");
    }

    [Fact]
    public void A_flipped_bit_in_a_frame_is_found_by_its_CRC()
    {
        var dump = TwoPairs().Build();
        dump[28 + 4 + 2] ^= 0x01;
        DumpReading.Rejects(dump, "CRC-32C of frame 1");
    }

    [Theory]
    [InlineData(0u)]
    [InlineData((1u << 20) + 1)]
    [InlineData(uint.MaxValue)]
    public void A_frame_claiming_an_impossible_length_is_refused(uint claimed)
    {
        var dump = new DumpBuilder().Build(withTrailer: false);
        byte[] hostile = [.. dump, (byte)claimed, (byte)(claimed >> 8), (byte)(claimed >> 16), (byte)(claimed >> 24), 1, 2, 3];
        DumpReading.Rejects(hostile, "a frame holds 1 to 1,048,576 bytes");
    }

    [Fact]
    public void Every_truncation_of_a_dump_is_refused()
    {
        var builder = new DumpBuilder { FrameLength = 7 };
        for (byte i = 1; i <= 6; i++)
        {
            builder.Pair([i, i], [.. Enumerable.Repeat(i, i * 3)]);
        }

        var dump = builder.End().Build();
        DumpReading.ReadAll(dump);
        for (var length = 0; length < dump.Length; length++)
        {
            var e = Assert.Throws<DumpFormatException>(() => DumpReading.ReadAll(dump.AsSpan(0, length).ToArray()));
            Assert.True(e.Message.Contains(length == 0 ? "empty" : "truncated", StringComparison.Ordinal), $"length {length}: {e.Message}");
        }
    }

    [Fact]
    public void Data_after_the_trailer_is_refused() =>
        DumpReading.Rejects([.. TwoPairs().Build(), 0], "data after the trailer");

    [Fact]
    public void A_wrong_checksum_in_the_trailer_is_refused() =>
        DumpReading.Rejects(TwoPairs().Build(trailer: t => t[20] ^= 1), "SHA-256");

    [Fact]
    public void A_wrong_pair_count_in_the_trailer_is_refused() =>
        DumpReading.Rejects(TwoPairs().Build(trailer: t => t[0] = 3), "records 3 pairs");

    [Fact]
    public void A_damaged_trailer_is_refused()
    {
        var dump = TwoPairs().Build();
        dump[^1] ^= 0x10;
        DumpReading.Rejects(dump, "trailer's CRC-32C");
    }

    [Fact]
    public void Keys_out_of_order_are_refused() =>
        DumpReading.Rejects(new DumpBuilder().Pair(K2, []).Pair(K1, []).End().Build(), "strictly ascending");

    [Fact]
    public void A_repeated_key_is_refused() =>
        DumpReading.Rejects(new DumpBuilder().Pair(K1, []).Pair(K1, [1]).End().Build(), "strictly ascending");

    [Fact]
    public void Bytes_after_the_end_marker_are_refused() =>
        DumpReading.Rejects(new DumpBuilder().Pair(K1, []).End().Raw(1, 5, 0).Build(), "end marker in frame 1 is followed by 3 more bytes");

    [Fact]
    public void A_dump_without_its_end_marker_is_refused() =>
        Assert.Throws<DumpFormatException>(() => DumpReading.ReadAll(TwoPairs().Build().AsSpan(..^53).ToArray()));

    [Fact]
    public void A_length_longer_than_five_bytes_is_refused() =>
        DumpReading.Rejects(new DumpBuilder().Raw(0x81, 0x80, 0x80, 0x80, 0x80, 0x01, 1).End().Build(), "more than 5 bytes");

    [Fact]
    public void A_length_past_the_largest_array_is_refused() =>
        DumpReading.Rejects(new DumpBuilder().Raw([.. DumpBuilder.Varint(1UL << 33)]).End().Build(), "more than 2,147,483,591 bytes");

    [Fact]
    public void A_length_with_needless_zero_bytes_is_refused() =>
        DumpReading.Rejects(new DumpBuilder().Raw(0x81, 0x00, 1, 0).End().Build(), "needless zero bytes");

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void A_gigabyte_length_claim_in_a_small_dump_allocates_only_what_arrives(bool claimKey)
    {
        // 1 GiB claimed, 3 MiB actually present, then the dump ends.
        var claim = DumpBuilder.Varint(1UL << 30);
        var builder = new DumpBuilder();
        builder.Raw(claimKey ? claim : [.. DumpBuilder.Varint(1), 7, .. claim]);
        builder.Raw(new byte[3 << 20]);
        var dump = builder.Build(withTrailer: false);

        DumpReading.Rejects(dump, "truncated");
        var before = GC.GetAllocatedBytesForCurrentThread();
        Assert.Throws<DumpFormatException>(() => DumpReading.CountPairs(new MemoryStream(dump)));
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.True(allocated < 16 << 20, $"reading a 1 GiB claim with 3 MiB present allocated {allocated:N0} bytes");
    }

    [Fact]
    public void A_large_pair_split_across_many_frames_reads_back_whole()
    {
        var value = new byte[300_000];
        new Random(7).NextBytes(value);
        var dump = new DumpBuilder { FrameLength = 4096 }.Pair([.. new byte[2000]], value).Pair([1], [2]).End().Build();
        var (pairs, _) = DumpReading.ReadAll(dump);
        Assert.Equal(value, pairs[0].Value);
        Assert.Equal(2000, pairs[0].Key.Length);
    }

    [Fact]
    public void Random_damage_is_always_a_DumpFormatException_never_another_failure()
    {
        var builder = new DumpBuilder { FrameLength = 64 };
        var random = new Random(7);
        for (var i = 0; i < 40; i++)
        {
            var value = new byte[random.Next(0, 90)];
            random.NextBytes(value);
            builder.Pair([(byte)(i / 10), (byte)i, (byte)random.Next(256)], value);
        }

        var good = builder.End().Build();
        for (var seed = 0; seed < 500; seed++)
        {
            var damaged = good.ToArray();
            var rng = new Random(seed);
            for (var flips = rng.Next(1, 4); flips > 0; flips--)
            {
                damaged[rng.Next(damaged.Length)] ^= (byte)rng.Next(1, 256);
            }

            var cut = rng.Next(4) == 0 ? rng.Next(damaged.Length) : damaged.Length;
            var e = Record.Exception(() => DumpReading.ReadAll(damaged.AsSpan(0, cut).ToArray()));
            Assert.True(e is DumpFormatException, $"seed {seed}: {e?.GetType().Name ?? "no exception"}: {e?.Message}");
        }
    }

    [Fact]
    public void The_format_limits_match_the_contract()
    {
        Assert.True(DumpFormat.MaxLength >= 256 << 20, "values of 256 MiB must fit");
        Assert.Equal(DumpFormat.MaxLength, Array.MaxLength);
    }
}

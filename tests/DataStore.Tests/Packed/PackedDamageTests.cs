using System.Buffers.Binary;
using DataStore.Packed;
using DataStore.Tests.Conformance;

namespace DataStore.Tests.Packed;

/// <summary>Damage to a packed file is an error naming the file, never a wrong value, fewer keys or a crash.</summary>
public sealed class PackedDamageTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_flipped_byte_in_a_block_fails_the_reads_of_that_block_naming_the_file()
    {
        var file = PackedTestStores.Build(StorePath, 2_000);
        Flip(file, 2_000); // inside the first block (about 39 pairs of 105 bytes)
        using var store = KeyValueStore.Open(StorePath);
        var damaged = Assert.Throws<StoreFormatException>(() => StoreAssert.Scan(store, []));
        Assert.Equal(StoreFailure.Corrupt, damaged.Cause);
        Assert.Contains(file, damaged.Message);
        Assert.Contains("CRC-32C", damaged.Message);

        // The key read from the damaged block fails too; a key in an undamaged block still reads.
        var inDamagedBlock = Bytes.Utf8("key/0000010");
        Assert.Throws<StoreFormatException>(() => store.Get(inDamagedBlock));
        Assert.Throws<StoreFormatException>(() => store.HaveKey(inDamagedBlock));
        Assert.NotNull(store.Get(Bytes.Utf8("key/0001999")));
    }

    [Theory]
    [InlineData("page table")]
    [InlineData("footer")]
    [InlineData("header")]
    public void A_flipped_byte_in_the_page_table_footer_or_header_fails_the_open_naming_the_file(string where)
    {
        var file = PackedTestStores.Build(StorePath, 2_000);
        var length = new FileInfo(file).Length;
        Flip(file, where switch { "page table" => length - PackedFormat.FooterLength - 2, "footer" => length - 30, _ => 3 });
        var e = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Equal(StoreFailure.Corrupt, e.Cause);
        Assert.Contains(file, e.Message);
        Assert.Contains(where, e.Message);
    }

    [Fact]
    public async Task A_flipped_byte_in_an_index_entry_fails_the_reads_of_its_page_naming_the_file_the_page_and_its_offset()
    {
        var file = PackedTestStores.Build(StorePath, 20_000); // about 520 blocks: their entries fill pages 0 to 4
        var footer = Footer(file);
        Flip(file, footer.IndexOffset + 2); // the offset of block 0, on index page 0

        // The open checks header, footer and page table only: it succeeds, and a key whose lookup reads other pages still reads.
        using var store = KeyValueStore.Open(StorePath);
        Assert.NotNull(store.Get(Bytes.Utf8("key/0019999")));
        var damaged = Assert.Throws<StoreFormatException>(() => StoreAssert.Scan(store, []));
        Assert.Equal(StoreFailure.Corrupt, damaged.Cause);
        Assert.Contains(file, damaged.Message);
        Assert.Contains($"index page 0 ({PackedFormat.PageLength} bytes at offset {footer.IndexOffset})", damaged.Message);
        Assert.Throws<StoreFormatException>(() => store.Get(Bytes.Utf8("key/0000010")));
        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.Contains(report.Problems, p => p.Contains(file, StringComparison.Ordinal) && p.Contains("index page 0", StringComparison.Ordinal));
    }

    [Fact]
    public void A_flipped_byte_in_the_hash_table_fails_the_lookups_that_probe_its_page()
    {
        var file = PackedTestStores.Build(StorePath, 2_000);
        var footer = Footer(file);
        var key = Bytes.Utf8("key/0000500");
        var slot = footer.HashOffset + (PackedHash.Home(PackedHash.Of(key), footer.HashSlots) * sizeof(ulong));
        Flip(file, slot + 7); // the tag of the slot the probe for key starts at

        using var store = KeyValueStore.Open(StorePath);
        var page = (slot - footer.IndexOffset) / PackedFormat.PageLength;
        var e = Assert.Throws<StoreFormatException>(() => store.HaveKey(key));
        Assert.Contains(file, e.Message);
        Assert.Contains($"index page {page} ", e.Message);
        Assert.Throws<StoreFormatException>(() => store.Get(key));
    }

    [Fact]
    public void A_version_1_file_is_refused_naming_the_version_and_what_to_do_and_left_as_it_was()
    {
        var file = PackedTestStores.Build(StorePath, 100);
        var header = new byte[PackedFormat.HeaderLength];
        using (var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite))
        {
            stream.ReadExactly(header);
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(8), 1);
            BinaryPrimitives.WriteUInt32LittleEndian(header.AsSpan(12), PackedFormat.Crc(header.AsSpan(0, 12)));
            stream.Position = 0;
            stream.Write(header);
        }

        var before = File.ReadAllBytes(file);
        var e = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Equal(StoreFailure.Unavailable, e.Cause);
        Assert.Contains(file, e.Message);
        Assert.Contains("format version 1", e.Message);
        Assert.Contains("build the store again", e.Message);
        Assert.Equal(before, File.ReadAllBytes(file));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(100)]
    [InlineData(200_000)]
    public void A_truncated_file_fails_the_open_naming_the_file(int cut)
    {
        var file = PackedTestStores.Build(StorePath, 2_000);
        using (var stream = new FileStream(file, FileMode.Open, FileAccess.Write))
        {
            stream.SetLength(Math.Max(0, stream.Length - cut));
        }

        var e = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Equal(StoreFailure.Corrupt, e.Cause);
        Assert.Contains(file, e.Message);
    }

    [Fact]
    public void A_deleted_file_is_a_damaged_store_not_an_empty_one()
    {
        var file = PackedTestStores.Build(StorePath, 10);
        File.Delete(file);
        var e = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Equal(StoreFailure.Corrupt, e.Cause);
    }

    [Fact]
    public async Task Verify_reports_the_damaged_block()
    {
        var file = PackedTestStores.Build(StorePath, 2_000);
        Flip(file, 100_000);
        using var store = KeyValueStore.Open(StorePath);
        var report = await store.VerifyAsync(cancellationToken: TestContext.Current.CancellationToken);
        Assert.False(report.IsHealthy);
        Assert.Contains(report.Problems, p => p.Contains(file, StringComparison.Ordinal) && p.Contains("CRC-32C", StringComparison.Ordinal));
    }

    public void Dispose() => _directory.Dispose();

    private static PackedFooter Footer(string file)
    {
        var bytes = File.ReadAllBytes(file);
        return PackedFooter.Read(bytes.AsSpan(bytes.Length - PackedFormat.FooterLength))!.Value;
    }

    private static void Flip(string file, long offset)
    {
        using var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = offset;
        var b = stream.ReadByte();
        stream.Position = offset;
        stream.WriteByte((byte)(b ^ 0x5A));
    }
}

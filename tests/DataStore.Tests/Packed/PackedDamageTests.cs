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
    [InlineData("index")]
    [InlineData("footer")]
    [InlineData("header")]
    public void A_flipped_byte_in_the_index_footer_or_header_fails_the_open_naming_the_file(string where)
    {
        var file = PackedTestStores.Build(StorePath, 2_000);
        var length = new FileInfo(file).Length;
        Flip(file, where switch { "index" => length - 64 - 100, "footer" => length - 30, _ => 3 });
        var e = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(StorePath));
        Assert.Equal(StoreFailure.Corrupt, e.Cause);
        Assert.Contains(file, e.Message);
        Assert.Contains(where, e.Message);
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

    private static void Flip(string file, long offset)
    {
        using var stream = new FileStream(file, FileMode.Open, FileAccess.ReadWrite);
        stream.Position = offset;
        var b = stream.ReadByte();
        stream.Position = offset;
        stream.WriteByte((byte)(b ^ 0x5A));
    }
}

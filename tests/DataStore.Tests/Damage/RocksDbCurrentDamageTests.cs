namespace DataStore.Tests.Damage;

/// <summary>
/// Found by the damage matrix: a zero byte inside RocksDB's <c>CURRENT</c> (which names the live MANIFEST file) made the
/// open throw <see cref="ArgumentException"/> ("Null character in path") instead of an error naming the file.
/// </summary>
public sealed class RocksDbCurrentDamageTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public void A_zero_byte_in_CURRENT_is_a_corrupt_error_naming_it_not_an_argument_exception()
    {
        var path = _directory.Sub("store");
        using (var store = KeyValueStore.Open(new DataStoreOptions { Path = path, Backend = StoreBackend.RocksDb }))
        {
            store.Put("a"u8, "1"u8);
        }

        var current = Path.Combine(path, "CURRENT");
        var bytes = File.ReadAllBytes(current); // "MANIFEST-000005\n"
        bytes[^2] = 0;
        File.WriteAllBytes(current, bytes);

        var error = Assert.Throws<StoreFormatException>(() => KeyValueStore.Open(path).Dispose());
        Assert.Equal(StoreFailure.Corrupt, error.Cause);
        Assert.Contains(current, error.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _directory.Dispose();
}

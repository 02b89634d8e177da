using DataStore.Tests.Conformance;

namespace DataStore.Tests.Api;

/// <summary>The defects the public-method fuzz (<see cref="PublicApiFuzzContract"/>) found, each pinned by its own case.</summary>
public sealed class FuzzFindingsTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Theory]
    [InlineData(StoreBackend.Sqlite)]
    [InlineData(StoreBackend.LiteDb)]
    public void An_enumerable_that_is_never_enumerated_holds_no_scan_open(StoreBackend backend)
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = backend, Timeout = TimeSpan.FromSeconds(1) });
        store.Put("a"u8, "1"u8);

        Assert.Empty(store.EnumeratePrefix([]).Take(0));
        Assert.Empty(store.EnumerateRange("a"u8, []).Take(0));
        _ = store.EnumerateKeys([]);

        store.Compact(); // waited for the three scans above and timed out on LiteDb
        StoreAssert.Holds(store, "a"u8.ToArray(), "1"u8.ToArray());
    }

    [Fact]
    public void Enumerating_the_same_enumerable_twice_reads_the_store_twice()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Sqlite });
        store.Put("a"u8, "1"u8);
        var pairs = store.EnumeratePrefix([]);
        var keys = store.EnumerateKeys([]);

        Assert.Single(pairs);
        Assert.Single(keys);
        store.Put("b"u8, "2"u8);
        Assert.Equal(2, pairs.Count()); // the second enumeration read a disposed cursor
        Assert.Equal(2, keys.Count());
    }

    [Fact]
    public void A_reversed_range_is_refused_when_EnumerateRange_is_called()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        Assert.Throws<ArgumentException>(() => store.EnumerateRange("b"u8, "a"u8));
    }

    [Theory]
    [InlineData(300)]
    [InlineData(5000)]
    public async Task A_backup_destination_too_long_for_the_file_system_is_an_ArgumentException_and_leaves_nothing(int length)
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.Sqlite });
        store.Put("a"u8, "1"u8);
        var destination = length > 255 * 2 ? _directory.Sub(string.Join('/', Enumerable.Repeat(new string('p', 200), length / 200))) : _directory.Sub(new string('n', length));

        var error = await Assert.ThrowsAsync<ArgumentException>(() => store.BackupAsync(destination, cancellationToken: TestContext.Current.CancellationToken));

        Assert.Contains("too long", error.Message, StringComparison.Ordinal);
        Assert.Equal(["store"], Directory.EnumerateFileSystemEntries(_directory.Path).Select(Path.GetFileName));
    }

    public void Dispose() => _directory.Dispose();
}

namespace DataStore.Tests.InMemory;

/// <summary>An in-memory store has no files: backup refuses clearly, compact reports nothing given back.</summary>
public sealed class InMemoryBackupTests
{
    [Fact]
    public async Task Backup_refuses_with_NotSupportedException_naming_export()
    {
        using var directory = new TemporaryDirectory();
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });

        var error = await Assert.ThrowsAsync<NotSupportedException>(() => store.BackupAsync(directory.Sub("backup"), cancellationToken: TestContext.Current.CancellationToken));

        Assert.Contains("ExportAsync", error.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(directory.Sub("backup")));
    }

    [Fact]
    public async Task CompactAsync_gives_back_nothing()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Backend = StoreBackend.InMemory });
        store.Put([1], [1]);

        Assert.Equal(0, await store.CompactAsync(cancellationToken: TestContext.Current.CancellationToken));
    }
}

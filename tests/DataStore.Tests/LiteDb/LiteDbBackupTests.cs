using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>A LiteDB backup holds commits that sit only in LiteDB's log file, not yet checkpointed into the data file.</summary>
public sealed class LiteDbBackupTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    [Fact]
    public async Task The_backup_holds_commits_that_are_only_in_the_log()
    {
        using var store = KeyValueStore.Open(new DataStoreOptions { Path = _directory.Sub("store"), Backend = StoreBackend.LiteDb });
        for (var i = 0; i < 50; i++)
        {
            store.Put(Bytes.Utf8($"k/{i:D3}"), Bytes.Random(100, i));
        }

        Assert.True(new FileInfo(Path.Combine(store.Path, "store-log.litedb")).Length > 0, "the commits were checkpointed already, so this test proves nothing");

        var result = await store.BackupAsync(_directory.Sub("backup"), cancellationToken: TestContext.Current.CancellationToken);

        using var copy = KeyValueStore.Open(new DataStoreOptions { Path = result.Path });
        var pairs = StoreAssert.Scan(copy, "k/"u8.ToArray());
        Assert.Equal(50, pairs.Count);
        Assert.Equal(Bytes.Random(100, 49), pairs[^1].Value);
    }

    public void Dispose() => _directory.Dispose();
}

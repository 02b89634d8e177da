using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// A LiteDb store is open in one process at a time (LiteDB's direct mode does not lock on Linux, and its shared
/// mode is not used, ADR 0009): a second process waits up to its timeout, then gets a clear DataStoreException.
/// </summary>
public sealed class LiteDbProcessLockTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_second_process_is_refused_naming_the_holder_and_gets_in_once_the_holder_dies()
    {
        using (var created = Open(TimeSpan.FromSeconds(10)))
        {
            created.Put("before"u8, "1"u8);
        }

        using var holder = ChildProcess.Start(["put-loop", StorePath, "LiteDb", "-", "child", "100000000"]);
        holder.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal), TimeSpan.FromSeconds(60));

        var error = Assert.Throws<StoreTimeoutException>(() => Open(TimeSpan.FromMilliseconds(300)));
        Assert.Equal(StoreFailure.Timeout, error.Cause);
        Assert.Equal(StoreBackend.LiteDb, error.Backend);
        Assert.Contains(StorePath, error.Message);
        Assert.Contains($"held by process {holder.Id}", error.Message);

        holder.KillHard();
        using var store = Open(TimeSpan.FromSeconds(10));
        StoreAssert.Holds(store, "before"u8.ToArray(), "1"u8.ToArray());
        Assert.True(store.HaveKey([.. "child/"u8, 0, 0, 0, 1]));
    }

    [Fact]
    public async Task A_second_open_in_the_same_process_waits_for_the_first_to_close()
    {
        var first = Open(TimeSpan.FromSeconds(10));
        Assert.Throws<StoreTimeoutException>(() => Open(TimeSpan.FromMilliseconds(100)));

        var second = Task.Run(() => Open(TimeSpan.FromSeconds(10)), TestContext.Current.CancellationToken);
        await Task.Delay(200, TestContext.Current.CancellationToken);
        first.Dispose();
        using var store = await second;
        store.Put("a"u8, "1"u8);
    }

    public void Dispose() => _directory.Dispose();

    private IKeyValueStore Open(TimeSpan timeout) =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.LiteDb, Timeout = timeout });
}

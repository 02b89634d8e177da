using DataStore.Tests.Conformance;

namespace DataStore.Tests.LiteDb;

/// <summary>
/// A LiteDb store is open in one process at a time (LiteDB's direct mode does not lock on Linux, and its shared
/// mode is not used, ADR 0009): a second process reaches it through the first (ADR 0015) and takes it over when the
/// first dies.
/// </summary>
public sealed class LiteDbProcessLockTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    private string StorePath => _directory.Sub("store");

    [Fact]
    public void A_second_process_is_a_client_of_the_holder_and_owns_the_store_once_the_holder_dies()
    {
        using (var created = Open(TimeSpan.FromSeconds(10)))
        {
            created.Put("before"u8, "1"u8);
        }

        using var holder = ChildProcess.Start(["put-loop", StorePath, "LiteDb", "-", "child", "100000000"]);
        holder.WaitForLine(l => l.StartsWith("ACK ", StringComparison.Ordinal), TimeSpan.FromSeconds(60));

        using var store = Open(TimeSpan.FromSeconds(10));
        Assert.Equal(new StoreSharing(StoreRole.Client, holder.Id), store.Sharing);
        Assert.True(store.HaveKey([.. "child/"u8, 0, 0, 0, 1]));

        holder.KillHard();
        StoreAssert.Holds(store, "before"u8.ToArray(), "1"u8.ToArray());
        Assert.True(store.HaveKey([.. "child/"u8, 0, 0, 0, 1]));
        Assert.Equal(StoreRole.Owner, store.Sharing.Role);
    }

    public void Dispose() => _directory.Dispose();

    private IKeyValueStore Open(TimeSpan timeout) =>
        KeyValueStore.Open(new DataStoreOptions { Path = StorePath, Backend = StoreBackend.LiteDb, Timeout = timeout });
}
